"""Which icnsim binary a script runs (docs/library.md, "Scripts").

In order: --icnsim PATH; --build DIR (DIR/testbench/icnsim); $ICNSIM; this
tree's build/testbench/icnsim if it was built; the icnsim on the PATH (an
installed one); else the build tree's path, which the script then reports
as missing."""
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILT = os.path.join(ROOT, "build", "testbench", "icnsim")
HELP = ("the icnsim binary (default: $ICNSIM, else build/testbench/icnsim if built, else the icnsim on the PATH)")


def default():
    if os.environ.get("ICNSIM"):
        return os.environ["ICNSIM"]
    if os.access(BUILT, os.X_OK):
        return BUILT
    return shutil.which("icnsim") or BUILT


def add_arguments(ap):
    """Adds --icnsim and --build to an argparse parser."""
    ap.add_argument("--icnsim", default=None, help=HELP)
    ap.add_argument("--build", default=None, metavar="DIR", help="a build folder: DIR/testbench/icnsim")


def resolve(args):
    """The binary the parsed --icnsim / --build name, else default()."""
    if getattr(args, "icnsim", None):
        return args.icnsim
    if getattr(args, "build", None):
        return os.path.join(args.build, "testbench", "icnsim")
    return default()
