"""`earl experiment run|list|report`: the face of earl.experiment (measurement series)."""
import argparse
import json

from earl import open_arguments

HELP = "run a traced command over a parameter grid, keep and compare the runs"
DESCRIPTION = ("Measurement series: `run` runs a command once per point of a parameter grid "
               "(each {NAME} in it replaced by the parameter's value, {trace} by the path to "
               "write the trace to), keeps each run's trace, metadata and analysis in "
               "ROOT/PROJECT/EXPERIMENT/MEASUREMENT/; `list` shows what is kept; `report` "
               "tabulates each wait state per run and plots it against a parameter.")


def configure(parser):
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    run = actions.add_parser("run", help="run the command over the grid (earl experiment run "
                                         "--project P --name E --param K=V1,V2 -- CMD {K} {trace})")
    run.add_argument("--root", default=".", help="folder holding the projects (default: .)")
    run.add_argument("--project", required=True, help="project name (a folder under ROOT)")
    run.add_argument("--name", required=True, help="experiment name (a folder under the project)")
    run.add_argument("--param", action="append", default=[], metavar="NAME=V1,V2",
                     help="a parameter and its values (repeatable: the grid is every combination)")
    run.add_argument("--reason", default="", help="why the experiment is run (kept in the metadata)")
    run.add_argument("--trace-name", default="trace.otf2", metavar="FILE",
                     help="the trace's file name in each measurement folder, its ending the "
                          "format ({trace}; default: trace.otf2)")
    open_arguments.add_format(run, ("--trace-format",), "the traces", metavar="FMT",
                              help="the format the command writes, for the analysis (default: "
                                   "detect from the content)")
    run.add_argument("--again", action="store_true",
                     help="run measurements again that were run before (default: keep them)")
    run.add_argument("--no-analysis", action="store_true", help="do not analyse the traces")
    run.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command and its arguments")
    listing = actions.add_parser("list", help="list projects, experiments and measurements")
    listing.add_argument("--root", default=".", help="folder holding the projects (default: .)")
    listing.add_argument("--json", action="store_true", help="print everything as one JSON object")
    report = actions.add_parser("report", help="tabulate (and plot) the wait states of an experiment's runs")
    report.add_argument("experiment", metavar="PROJECT/EXPERIMENT", help="the experiment")
    report.add_argument("--root", default=".", help="folder holding the projects (default: .)")
    report.add_argument("--json", action="store_true", help="print the table as one JSON object")
    report.add_argument("--plot", metavar="FILE", help="plot each wait state against a parameter (PNG, SVG, PDF)")
    report.add_argument("--by", metavar="NAME", help="the plot's parameter (default: the first that varies)")
    report.add_argument("--percent", action="store_true",
                        help="show each wait state as a percentage of the run's time")


def _run(args):
    from earl import EarlError, experiment
    from earl.experiment.runner import parse_param
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    parameters = {}
    for text in args.param:
        name, values = parse_param(text)
        if name in parameters:
            raise EarlError(f"earl experiment: parameter {name} given twice")
        parameters[name] = values
    results = experiment.run(args.root, args.project, args.name, parameters, command,
                             reason=args.reason, trace_name=args.trace_name,
                             analyze=not args.no_analysis, again=args.again, echo=print,
                             trace_format=open_arguments.given_format(args.trace_format,
                                                                      args.describe))
    failed = [r for r in results if r["exit_status"] != 0]
    print(f"earl experiment: {len(results)} measurements in "
          f"{args.root}/{args.project}/{args.name}, {len(failed)} failed")
    return 1 if failed else 0


def _list(args):
    from earl.experiment import list_tree
    tree = list_tree(args.root)
    if args.json:
        print(json.dumps(tree, indent=1))
        return 0
    if not tree:
        print(f"no experiments under {args.root}")
    for project, experiments in tree.items():
        print(project)
        for name, runs in experiments.items():
            print(f"  {name}: {len(runs)} measurements")
            for meta in runs:
                state = "analysed" if meta.get("report") else (
                    f"exit status {meta['exit_status']}" if meta["exit_status"] else "no report")
                print(f"    {meta['measurement']}  {meta['date']}  {state}")
    return 0


def _report(args):
    from earl.experiment import plot, table, text
    result = table(args.root, args.experiment)
    if args.plot:
        by = plot(result, args.plot, by=args.by)
        result["plot"] = {"file": args.plot, "by": by}
    print(json.dumps(result, indent=1) if args.json else text(result, percent=args.percent))
    return 0


def run(args):
    return {"run": _run, "list": _list, "report": _report}[args.action](args)
