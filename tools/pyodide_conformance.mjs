// The conformance cases under Pyodide in node (called by tools/matrix.py):
//   node tools/pyodide_conformance.mjs RUNTIME_DIR CHECKOUT DATA_DIR IDNA_WHEEL
// RUNTIME_DIR holds the npm `pyodide` package's files; the checkout and the tests-web-url data are
// mounted into Pyodide's file system (NODEFS) and idna's wheel is unpacked into its site-packages,
// so nothing is fetched while it runs. Prints tools/conformance_cases.py's output; its last line
// is JSON with the counts.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, checkout, data, wheel] = process.argv.slice(2).map(p => resolve(p));
const { loadPyodide } = await import(pathToFileURL(resolve(runtime, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: runtime + "/", env: { WEBURL_TESTDATA: "/data" } });
for (const [from, to] of [[checkout, "/repo"], [data, "/data"]]) {
  py.FS.mkdirTree(to);
  py.FS.mount(py.FS.filesystems.NODEFS, { root: from }, to);
}
const site = py.runPython("import sys, sysconfig; sys.dont_write_bytecode = True; "
                          + "sysconfig.get_paths()['purelib']");
py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: site });
const code = `
import runpy, sys
sys.path.insert(0, "/repo")
sys.argv = ["/repo/tools/conformance_cases.py", "--json"]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    status = 0
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else 1
status
`;
process.exitCode = py.runPython(code);
