// Package kubectl runs kubectl command lines against the simulated API
// server and prints what real kubectl (v1.34) prints, with its exit codes:
// 0 on success, 1 on an error from the server or a bad command.
//
// A line is read by one grammar (Parse: the commands, their flags and the
// global flags, with cobra's and pflag's errors), which Run uses to run it
// and Check uses to refuse, when a lesson loads, what kubectl would
// refuse. Objects are chosen as kubectl's resource builder chooses them:
// TYPE[,TYPE] [NAME...], TYPE/NAME, "all", and label and field selectors
// read by package selector as the API server reads them. They are printed
// by the API server's table columns, -o wide|name|json|yaml, the jsonpath
// template language (JSONPath) and custom columns, and described with
// kubectl's describers' sections.
//
// Commands act on the store exactly as kubectl acts on an API server: they
// store desired state and return. Nothing has run yet when they return.
// Commands that keep watching (rollout status, get -w) are a Watch, which
// its owner asks to look again after every change (CheckAt), or hands the
// store's changes since it last looked (CheckChanges), which get -w and
// events -w read instead of every object of their kind.
//
// kubectl top reads the metrics API besides the store: a Metrics its
// caller serves (ExecCluster; the simulation's is engine/sim's metrics-server),
// or none, as a cluster without metrics-server.
package kubectl
