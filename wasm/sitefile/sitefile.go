// Package sitefile writes the files of a generated go-app site: each
// written whole or not at all, rewritten in place, and app.wasm
// precompressed as the site serves it. The playground's site and make
// bench's floor are written with it, so that both are served alike.
package sitefile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

// BrotliWindow is the window app.wasm.br is compressed with: the largest
// the format has (16 MB), which every browser's decoder accepts. With
// brotli's best quality, on bb31ff9: 3,020,633 B at quality 9 with the
// default window, 2,712,069 at 10, 2,624,147 at 11 (−13%), for about 45 s
// of one core at build time.
const BrotliWindow = 24

// BestBrotli is brotli's best quality, the site's unless told otherwise.
const BestBrotli = 11

// Precompress writes name.gz (gzip's best) and name.br (brotli at quality,
// 0 to 11, with BrotliWindow) beside name, for the server to send whichever
// the browser takes. Both at once: brotli at its best takes most of the
// time.
func Precompress(name string, quality int) error {
	if quality < 0 || quality > BestBrotli {
		return fmt.Errorf("brotli's quality is 0 to %d, not %d", BestBrotli, quality)
	}
	gz := make(chan error, 1)
	go func() {
		gz <- compress(name, name+".gz", func(w io.Writer) (io.WriteCloser, error) {
			return gzip.NewWriterLevel(w, gzip.BestCompression)
		})
	}()
	br := compress(name, name+".br", func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: quality, LGWin: BrotliWindow}), nil
	})
	return errors.Join(<-gz, br)
}

// Copy copies the file src to dst.
func Copy(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return WriteAtomically(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// Rewrite replaces the file name with what change makes of it, when that
// differs.
func Rewrite(name string, change func([]byte) ([]byte, error)) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	out, err := change(b)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if bytes.Equal(out, b) {
		return nil
	}
	return WriteAtomically(name, func(w io.Writer) error {
		_, err := w.Write(out)
		return err
	})
}

// WriteAtomically writes dst through a temporary file renamed into place:
// a failed write leaves what was there.
func WriteAtomically(dst string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), dst)
}

// compress writes src to dst through the writer newWriter makes.
func compress(src, dst string, newWriter func(io.Writer) (io.WriteCloser, error)) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return WriteAtomically(dst, func(w io.Writer) error {
		zw, err := newWriter(w)
		if err != nil {
			return err
		}
		if _, err := io.Copy(zw, in); err != nil {
			return err
		}
		return zw.Close()
	})
}
