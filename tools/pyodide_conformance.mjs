// The conformance cases under Pyodide in node (called by tools/matrix.py):
//   node tools/pyodide_conformance.mjs RUNTIME_DIR CHECKOUT DATA_DIR IDNA_WHEEL [WHEEL ...] [-- SCRIPT ARG ...]
// RUNTIME_DIR holds the npm `pyodide` package's files; the checkout and the tests-web-url data are
// mounted into Pyodide's file system (NODEFS) and the wheels (idna's, and any other pure-Python
// one, such as publicsuffixlist's) are unpacked into its site-packages, so nothing is fetched while
// it runs. Prints tools/conformance_cases.py's output (its last line is JSON with the counts), or,
// after `--`, runs SCRIPT (a path in the checkout) with its arguments instead.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const cut = args.includes("--") ? args.indexOf("--") : args.length;
const [runtime, checkout, data, ...wheels] = args.slice(0, cut).map(p => resolve(p));
const script = cut < args.length ? args.slice(cut + 1) : ["tools/conformance_cases.py", "--json"];
const { loadPyodide } = await import(pathToFileURL(resolve(runtime, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: runtime + "/", env: { WEBURL_TESTDATA: "/data" } });
for (const [from, to] of [[checkout, "/repo"], [data, "/data"]]) {
  py.FS.mkdirTree(to);
  py.FS.mount(py.FS.filesystems.NODEFS, { root: from }, to);
}
const site = py.runPython("import sys, sysconfig; sys.dont_write_bytecode = True; "
                          + "sysconfig.get_paths()['purelib']");
for (const wheel of wheels) {
  py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: site });
}
py.globals.set("script_argv", py.toPy(["/repo/" + script[0], ...script.slice(1)]));
const code = `
import runpy, sys
sys.path.insert(0, "/repo")
sys.argv = list(script_argv)
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    status = 0
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else 1
status
`;
process.exitCode = py.runPython(code);
