/**
 * Regenerates `python.json`: Python's builtins, its standard-library module names, the
 * public names of each importable standard module and the submodules of its packages,
 * read from a local `python3`.
 *
 *   deno run -A src/analysis/names/generate.ts [PYTHON]
 */

const SCRIPT = `
import builtins, contextlib, importlib, io, json, pkgutil, sys, warnings
warnings.filterwarnings("ignore")
skip = {"antigravity", "this", "idlelib", "turtledemo", "tkinter", "turtle", "lib2to3",
        "pydoc_data", "ensurepip", "venv", "__phello__"}
extra = ["os.path", "xml.etree.ElementTree", "xml.dom.minidom", "xml.sax.saxutils",
         "urllib.parse", "urllib.request", "urllib.error", "http.client", "http.server",
         "email.message", "email.utils", "concurrent.futures", "logging.handlers",
         "logging.config", "importlib.util", "importlib.metadata", "unittest.mock",
         "collections.abc", "multiprocessing.pool", "ctypes.util", "json.decoder"]
members = {}
submodules = {}
for m in sorted(n for n in sys.stdlib_module_names if not n.startswith("_") and n not in skip) + extra:
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            mod = importlib.import_module(m)
    except Exception:
        continue
    members[m] = sorted(n for n in dir(mod) if not n.startswith("_"))
    if hasattr(mod, "__path__"):
        subs = sorted(i.name for i in pkgutil.iter_modules(mod.__path__) if not i.name.startswith("_"))
        if subs:
            submodules[m] = subs
print(json.dumps({"version": sys.version.split()[0], "builtins": sorted(dir(builtins)),
                  "modules": sorted(sys.stdlib_module_names), "members": members,
                  "submodules": submodules},
                 separators=(",", ":")))
`;

const python = Deno.args[0] ?? "python3";
const out = await new Deno.Command(python, { args: ["-c", SCRIPT], stdout: "piped" }).output();
if (!out.success) throw new Error(`${python} failed`);
const target = new URL("./python.json", import.meta.url);
await Deno.writeFile(target, out.stdout);
// Stored as `deno fmt` writes it, so the format check passes.
await new Deno.Command(Deno.execPath(), { args: ["fmt", target.pathname] }).output();
console.log(`wrote ${target.pathname} (${out.stdout.length} bytes)`);
