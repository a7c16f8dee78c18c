// What sphinxcontrib-katex's node server loads as its converter (_ext/page_math.py): it
// requires the file that `katex_js_path` names with its last three letters (".js") dropped,
// and Temml's CommonJS build is dist/temml.cjs, which the package exports to `require`.
module.exports = require("temml");
