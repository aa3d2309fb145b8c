"""Package.resolved's pins, read once for the scripts beside this file (write-copyright,
check-pins): a tree that has not resolved its packages ends the calling script, naming it."""
import json
import sys


def read(root, tool):
    """The pins of ROOT/Package.resolved, sorted by identity; exits as TOOL when there are none."""
    path = root / "Package.resolved"
    try:
        pins = json.loads(path.read_text())["pins"]
    except (OSError, ValueError, KeyError) as error:
        sys.exit("%s: cannot read the pins of %s (%s): resolve the packages first (swift build)" % (tool, path, error))
    return sorted(pins, key=lambda pin: pin["identity"])
