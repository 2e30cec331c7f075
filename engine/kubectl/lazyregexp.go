package kubectl

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regexp compiled at its first use, not at every start of
// the playground: the regexps of jsonpath, custom-columns and quantities
// serve commands a learner may never type. (A struct and one method, not
// sync.OnceValue: its closures are copied into init for each regexp.)
type lazyRegexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
