package kubectl

import (
	"reflect"
	"slices"
	"testing"
)

// The grammar's table as it was first written, in Go: kubectl's flags
// built by helpers and groups shared between commands. The table the
// package reads (grammarTable) must say the same, flag for flag.

// Refusals shared by many commands.
const (
	oNoFiles   = "reading manifests from files is not simulated: use the Desired state editor (apply -f -)"
	oNoDryRun  = "dry runs are not simulated"
	oNoCluster = "this kubectl talks to the one simulated cluster, as its one user"
	oNoRaw     = "raw API paths are not simulated"
	oNoEdit    = "this playground has no editor for kubectl: use the Desired state editor"
)

func oBoolF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: BoolFlag, Default: def}
}
func oStrF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: StringFlag, Default: def}
}
func oRefused(f Flag, why string) Flag { f.Refused = why; return f }
func oIgnored(f Flag, why string) Flag { f.Ignored = why; return f }
func oIntF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: IntFlag, Default: def}
}
func oDurF(name, def string) Flag { return Flag{Name: name, Kind: DurationFlag, Default: def} }
func oListF(name, short, def string) Flag {
	return Flag{Name: name, Short: short, Kind: ListFlag, Default: def}
}
func oGroup(fs ...[]Flag) (out []Flag)     { return slices.Concat(fs...) }
func oOne(fs ...Flag) []Flag               { return fs }
func oNoEffect(name, def, why string) Flag { return oIgnored(oStrF(name, "", def), why) }

var (
	ofSelector = oStrF("selector", "l", "''")
	ofAllNS    = oBoolF("all-namespaces", "A", "false")
	ofOutput   = oStrF("output", "o", "''")
	ofFiles    = []Flag{oRefused(oListF("filename", "f", "[]"), oNoFiles), oRefused(oStrF("kustomize", "k", "''"), oNoFiles),
		oRefused(oBoolF("recursive", "R", "false"), oNoFiles)}
	ofPrint = []Flag{ofOutput, oBoolF("allow-missing-template-keys", "", "true"),
		oIgnored(oBoolF("show-managed-fields", "", "false"), "objects here carry no managed fields"),
		oStrF("template", "", "''")}
	ofDryRun  = oRefused(oStrF("dry-run", "", "'none'"), oNoDryRun)
	ofRecord  = oBoolF("record", "", "false")
	ofManager = func(m string) Flag { return oNoEffect("field-manager", "'"+m+"'", "field managers are not simulated") }
	ofChunk   = oIgnored(oIntF("chunk-size", "", "500"), "lists are not paged here")
	ofRV      = oRefused(oStrF("resource-version", "", "''"), "preconditions on resourceVersion are not simulated")
	ofLocal   = oRefused(oBoolF("local", "", "false"), oNoFiles)
)

// GlobalFlags are the flags every command takes.
var oracleGlobalFlags = []Flag{
	oStrF("namespace", "n", "''"),
	oStrF("request-timeout", "", "'0'"),
	oRefused(oStrF("as", "", "''"), oNoCluster), oRefused(oListF("as-group", "", "[]"), oNoCluster), oRefused(oStrF("as-uid", "", "''"), oNoCluster),
	oIgnored(oStrF("cache-dir", "", "'$HOME/.kube/cache'"), "nothing is cached"),
	oRefused(oStrF("certificate-authority", "", "''"), oNoCluster), oRefused(oStrF("client-certificate", "", "''"), oNoCluster),
	oRefused(oStrF("client-key", "", "''"), oNoCluster), oRefused(oStrF("cluster", "", "''"), oNoCluster), oRefused(oStrF("context", "", "''"), oNoCluster),
	oIgnored(oBoolF("disable-compression", "", "false"), "nothing goes over a network"),
	oRefused(oBoolF("insecure-skip-tls-verify", "", "false"), oNoCluster), oRefused(oStrF("kubeconfig", "", "''"), oNoCluster),
	oIgnored(oDurF("log-flush-frequency", "5s"), "there is no log"), oIgnored(oBoolF("match-server-version", "", "false"), "client and server are one"),
	oRefused(oStrF("password", "", "''"), oNoCluster), oIgnored(oStrF("profile", "", "'none'"), "there is no profiler"),
	oIgnored(oStrF("profile-output", "", "'profile.pprof'"), "there is no profiler"), oRefused(oStrF("server", "s", "''"), oNoCluster),
	oRefused(oStrF("tls-server-name", "", "''"), oNoCluster), oRefused(oStrF("token", "", "''"), oNoCluster), oRefused(oStrF("user", "", "''"), oNoCluster),
	oRefused(oStrF("username", "", "''"), oNoCluster), oIgnored(oIntF("v", "v", "0"), "there is no log"), oIgnored(oStrF("vmodule", "", ""), "there is no log"),
	oIgnored(oBoolF("warnings-as-errors", "", "false"), "warnings are printed as kubectl prints them"),
}

// Commands are the commands this kubectl runs, with their flags as
// kubectl v1.34 has them.
var oracleCommands = []Command{
	{"get", oGroup(oOne(ofAllNS), ofPrint, oOne(ofChunk, oStrF("field-selector", "", "''")), ofFiles,
		oOne(oBoolF("ignore-not-found", "", "false"), oListF("label-columns", "L", "[]"), oBoolF("no-headers", "", "false"),
			oBoolF("output-watch-events", "", "false"), oRefused(oStrF("raw", "", "''"), oNoRaw), ofSelector,
			oIgnored(oBoolF("server-print", "", "true"), "the table is printed here, as the server would"),
			oBoolF("show-kind", "", "false"), oBoolF("show-labels", "", "false"), oStrF("sort-by", "", "''"),
			oStrF("subresource", "", "''"), oBoolF("watch", "w", "false"), oBoolF("watch-only", "", "false")))},
	{"describe", oGroup(oOne(ofAllNS, ofChunk), ofFiles, oOne(ofSelector, oBoolF("show-events", "", "true")))},
	{"delete", oGroup(oOne(oBoolF("all", "", "false"), ofAllNS, oStrF("cascade", "", "'background'"), ofDryRun, oStrF("field-selector", "", "''")), ofFiles,
		oOne(oBoolF("force", "", "false"), oIntF("grace-period", "", "-1"), oBoolF("ignore-not-found", "", "false"),
			oRefused(oBoolF("interactive", "i", "false"), "there is no terminal to answer from"), oBoolF("now", "", "false"), ofOutput,
			oRefused(oStrF("raw", "", "''"), oNoRaw), ofSelector, oIgnored(oDurF("timeout", "0s"), "a deletion is stored at once"),
			oIgnored(oBoolF("wait", "", "true"), "a deletion is stored at once; what follows it shows in the run")))},
	{"scale", oGroup(oOne(oBoolF("all", "", "false"), oStrF("current-replicas", "", "-1"), ofDryRun), ofFiles, ofPrint,
		oOne(ofRecord, oIntF("replicas", "", "0"), ofRV, ofSelector, oIgnored(oDurF("timeout", "0s"), "scale returns once the change is stored")))},
	{"set image", oGroup(oOne(oBoolF("all", "", "false"), ofDryRun, ofManager("kubectl-set"), ofLocal), ofFiles, ofPrint, oOne(ofRecord, ofSelector))},
	{"patch", oGroup(oOne(ofDryRun, ofManager("kubectl-patch"), ofLocal), ofFiles, ofPrint,
		oOne(oStrF("patch", "p", "''"), oRefused(oStrF("patch-file", "", "''"), oNoFiles), ofRecord, oStrF("subresource", "", "''"), oStrF("type", "", "'strategic'")))},
	{"label", oGroup(oOne(oBoolF("all", "", "false"), ofAllNS, ofDryRun, ofManager("kubectl-label"), oStrF("field-selector", "", "''")), ofFiles, ofPrint,
		oOne(oBoolF("list", "", "false"), ofLocal, oBoolF("overwrite", "", "false"), ofRecord, ofRV, ofSelector))},
	{"annotate", oGroup(oOne(oBoolF("all", "", "false"), ofAllNS, ofDryRun, ofManager("kubectl-annotate"), oStrF("field-selector", "", "''")), ofFiles, ofPrint,
		oOne(oBoolF("list", "", "false"), ofLocal, oBoolF("overwrite", "", "false"), ofRecord, ofRV, ofSelector))},
	{"taint", oGroup(oOne(oBoolF("all", "", "false"), ofDryRun, ofManager("kubectl-taint")), ofPrint,
		oOne(oBoolF("overwrite", "", "false"), ofSelector, oIgnored(oStrF("validate", "", "'strict'"), "the API server validates every object here")))},
	{"set resources", oGroup(oOne(oBoolF("all", "", "false"), oStrF("containers", "c", "'*'"), ofDryRun, ofManager("kubectl-set")), ofFiles,
		oOne(oStrF("limits", "", "''"), ofLocal), ofPrint, oOne(oStrF("requests", "", "''"), ofSelector))},
	{"expose", oGroup(oOne(oStrF("cluster-ip", "", "''"), ofDryRun, oStrF("external-ip", "", "''"), ofManager("kubectl-expose")), ofFiles,
		oOne(oStrF("labels", "l", "''"), oRefused(oStrF("load-balancer-ip", "", "''"), "no cloud provider is simulated"), oStrF("name", "", "''")), ofPrint,
		oOne(oRefused(oStrF("override-type", "", "'merge'"), "overrides are not simulated"), oRefused(oStrF("overrides", "", "''"), "overrides are not simulated"),
			oStrF("port", "", "''"), oStrF("protocol", "", "''"), oIgnored(oBoolF("save-config", "", "false"), "last-applied configuration is not kept"),
			oStrF("selector", "", "''"), oStrF("session-affinity", "", "''"), oStrF("target-port", "", "''"), oStrF("type", "", "''")))},
	{"autoscale", oGroup(oOne(oIntF("cpu-percent", "", "-1"), ofDryRun, ofManager("kubectl-autoscale")), ofFiles,
		oOne(oIntF("max", "", "-1"), oIntF("min", "", "-1"), oStrF("name", "", "''")), ofPrint,
		oOne(oIgnored(oBoolF("save-config", "", "false"), "last-applied configuration is not kept")))},
	{"cordon", oOne(ofDryRun, ofSelector)},
	{"uncordon", oOne(ofDryRun, ofSelector)},
	{"drain", oOne(ofChunk, oBoolF("delete-emptydir-data", "", "false"), oBoolF("disable-eviction", "", "false"), ofDryRun, oBoolF("force", "", "false"),
		oIntF("grace-period", "", "-1"), oBoolF("ignore-daemonsets", "", "false"), oStrF("pod-selector", "", "''"), ofSelector,
		oIntF("skip-wait-for-delete-timeout", "", "0"), oDurF("timeout", "0s"))},
	{"rollout status", oGroup(ofFiles, oOne(oIntF("revision", "", "0"), ofSelector, oDurF("timeout", "0s"), oBoolF("watch", "w", "true")))},
	{"rollout history", oGroup(ofFiles, ofPrint, oOne(oIntF("revision", "", "0"), ofSelector))},
	{"rollout undo", oGroup(oOne(ofDryRun), ofFiles, ofPrint, oOne(ofSelector, oIntF("to-revision", "", "0")))},
	{"rollout pause", oGroup(oOne(ofManager("kubectl-rollout")), ofFiles, ofPrint, oOne(ofSelector))},
	{"rollout resume", oGroup(oOne(ofManager("kubectl-rollout")), ofFiles, ofPrint, oOne(ofSelector))},
	{"rollout restart", oGroup(oOne(ofManager("kubectl-rollout")), ofFiles, ofPrint, oOne(ofSelector))},
	{"api-resources", oOne(oStrF("api-group", "", "''"), oIgnored(oBoolF("cached", "", "false"), "discovery is not cached: the resources are the simulated server's"),
		oListF("categories", "", "[]"), oBoolF("namespaced", "", "true"), oBoolF("no-headers", "", "false"), ofOutput, oStrF("sort-by", "", "''"),
		oRefused(oListF("verbs", "", "[]"), "the verbs each resource takes are not modelled"))},
	{"diff", oOne(oIgnored(oIntF("concurrency", "", "1"), "objects are diffed one after another here"), ofManager("kubectl-client-side-apply"),
		oListF("filename", "f", "[]"), oBoolF("force-conflicts", "", "false"), oRefused(oStrF("kustomize", "k", "''"), oNoFiles),
		oBoolF("prune", "", "false"), oListF("prune-allowlist", "", "[]"),
		oRefused(oBoolF("recursive", "R", "false"), oNoFiles), ofSelector,
		oRefused(oBoolF("server-side", "", "false"), "server-side apply is not simulated: kubectl diff runs kubectl apply's client-side merge"),
		oIgnored(oBoolF("show-managed-fields", "", "false"), "objects here carry no managed fields"))},
	{"events", oGroup(oOne(ofAllNS, ofChunk, oStrF("for", "", "''"), oBoolF("no-headers", "", "false"), oListF("types", "", "[]"), oBoolF("watch", "w", "false")), ofPrint)},
	{"wait", oGroup(oOne(oBoolF("all", "", "false"), ofAllNS, oStrF("field-selector", "", "''"), oRefused(oListF("filename", "f", "[]"), oNoFiles),
		oRefused(oBoolF("recursive", "R", "true"), oNoFiles), oStrF("for", "", "''"), ofLocal), ofPrint, oOne(ofSelector, oDurF("timeout", "30s")))},
	{"create deployment", oGroup(oOne(ofDryRun, ofManager("kubectl-create"), oListF("image", "", "[]")), ofPrint,
		oOne(oIntF("port", "", "-1"), oIntF("replicas", "r", "1"), oIgnored(oBoolF("save-config", "", "false"), "the object is created without the last-applied annotation; a later apply warns and writes it"),
			oIgnored(oStrF("validate", "", "'strict'"), "the API server validates every object here")))},
	{"create poddisruptionbudget", oGroup(oOne(ofDryRun, ofManager("kubectl-create"), oStrF("max-unavailable", "", "''"), oStrF("min-available", "", "''")), ofPrint,
		oOne(oIgnored(oBoolF("save-config", "", "false"), "last-applied configuration is not kept"), oStrF("selector", "", "''"),
			oIgnored(oStrF("validate", "", "'strict'"), "the API server validates every object here")))},
	{"create namespace", oGroup(oOne(ofDryRun, ofManager("kubectl-create")), ofPrint,
		oOne(oIgnored(oBoolF("save-config", "", "false"), "last-applied configuration is not kept"),
			oIgnored(oStrF("validate", "", "'strict'"), "the API server validates every object here")))},
	{"top pod", oOne(ofAllNS, oBoolF("containers", "", "false"), oStrF("field-selector", "", "''"), oBoolF("no-headers", "", "false"), ofSelector,
		oRefused(oBoolF("show-swap", "", "false"), "swap is not simulated"), oStrF("sort-by", "", "''"), oBoolF("sum", "", "false"),
		oIgnored(oBoolF("use-protocol-buffers", "", "true"), "the metrics API is read in process here"))},
	{"top node", oOne(oBoolF("no-headers", "", "false"), ofSelector, oBoolF("show-capacity", "", "false"),
		oRefused(oBoolF("show-swap", "", "false"), "swap is not simulated"), oStrF("sort-by", "", "''"),
		oIgnored(oBoolF("use-protocol-buffers", "", "true"), "the metrics API is read in process here"))},
	{"apply", nil},
	{"help", nil},
}

func TestGrammarTable(t *testing.T) {
	if !reflect.DeepEqual(GlobalFlags(), oracleGlobalFlags) {
		t.Errorf("global flags:\n got %+v\nwant %+v", GlobalFlags(), oracleGlobalFlags)
	}
	got := Commands()
	if len(got) != len(oracleCommands) {
		t.Fatalf("%d commands, want %d", len(got), len(oracleCommands))
	}
	for i, c := range oracleCommands {
		if !reflect.DeepEqual(got[i], c) {
			t.Errorf("command %q:\n got %+v\nwant %+v", c.Path, got[i], c)
		}
	}
}
