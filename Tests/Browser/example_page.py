#!/usr/bin/env python3
"""Renders the viewgraph-example page in headless Chromium and checks what a person sees.

Usage: python3 Tests/Browser/example_page.py [--install]

Builds and runs `viewgraph-example` on its shipped model, adds a script to a copy of the page
that measures the laid-out page with the browser's own layout (getBoundingClientRect,
getComputedStyle) and writes the measurements into the DOM, and reads them back from
`chromium --headless --dump-dom`. Checks:

- every text of the page lies inside the page's padding, the scenarios' section included;
- the route tree shows its nesting: each route is further right than its parent route, and the
  tree has routes at three depths or more;
- component titles are smaller than the page's title, in a style of their own;
- the page's error lines are exactly the two it shows on purpose, which the README describes:
  the JSON item of an unknown kind, and the component asked to show a model that does not
  conform, right after the caption that says so.

With --install, a missing `chromium` is installed with apt-get first (Debian's package). When no
browser can be found or installed, the script prints why and exits 0 with SKIPPED: CI says so
in its log rather than failing on a machine without a browser, and never passes silently.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

MEASURE = """
<script>
(function () {
  const report = {};
  // The page's padded container: the first element of the body that has padding.
  let outer = document.body.firstElementChild;
  for (let node = outer; node; node = node.firstElementChild) {
    if (parseFloat(getComputedStyle(node).paddingLeft) > 0) { outer = node; break; }
  }
  const box = outer.getBoundingClientRect();
  const style = getComputedStyle(outer);
  const content = {
    left: box.left + parseFloat(style.paddingLeft), right: box.right - parseFloat(style.paddingRight),
    top: box.top + parseFloat(style.paddingTop), bottom: box.bottom - parseFloat(style.paddingBottom),
  };
  report.paddingLeft = parseFloat(style.paddingLeft);
  report.outside = [];
  for (const p of document.querySelectorAll('p')) {
    const r = p.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < content.left - 0.5 || r.top < content.top - 0.5 || r.bottom > content.bottom + 0.5) {
      report.outside.push(p.textContent);
    }
  }
  report.routes = [];
  for (const route of document.querySelectorAll('.route')) {
    let depth = 0;
    let parentRoute = null;
    for (let node = route.parentElement; node; node = node.parentElement) {
      if (node.classList.contains('route-children')) {
        depth += 1;
        if (!parentRoute) {
          // The route this group belongs to: the group's previous sibling.
          parentRoute = node.previousElementSibling;
        }
      }
    }
    const left = route.getBoundingClientRect().left;
    const parentLeft = parentRoute ? parentRoute.getBoundingClientRect().left : null;
    report.routes.push({text: route.textContent.trim(), depth: depth, left: left, parentLeft: parentLeft});
  }
  const size = (selector) => {
    const element = document.querySelector(selector + ' p') || document.querySelector(selector);
    return element ? parseFloat(getComputedStyle(element).fontSize) : null;
  };
  report.titleSize = size('.title');
  report.componentTitleSize = size('.component-title');
  report.errors = [];
  for (const error of document.querySelectorAll('.vg-error')) {
    const previous = error.previousElementSibling;
    report.errors.push({
      text: error.textContent,
      afterCaption: !!(previous && previous.classList.contains('caption')),
      color: getComputedStyle(error).color,
    });
  }
  const pre = document.createElement('pre');
  pre.id = 'vg-layout-report';
  pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
})();
</script>
"""

EXPECTED_ERRORS = [
    ("viewgraph_example.UnknownItem is not a view", False),
    ("ViewGraphExamples.Order does not conform to PersonDetailItemModel", True),
]


def find_browser(install):
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if install and shutil.which("apt-get"):
        for command in (["apt-get", "install", "-y", "chromium"], ["apt-get", "update"],
                        ["apt-get", "install", "-y", "chromium"]):
            subprocess.run(command, capture_output=True)
            if shutil.which("chromium"):
                return shutil.which("chromium")
    return None


def main():
    browser = find_browser("--install" in sys.argv)
    if browser is None:
        print("SKIPPED: no Chromium could be found or installed (apt-get install chromium); the example page was "
              "not checked in a browser")
        return
    subprocess.run(["swift", "build", "--package-path", ROOT, "--product", "viewgraph-example"], check=True,
                   capture_output=True)
    binary = os.path.join(subprocess.run(["swift", "build", "--package-path", ROOT, "--show-bin-path"], check=True,
                                         capture_output=True, text=True).stdout.strip(), "viewgraph-example")
    with tempfile.TemporaryDirectory() as directory:
        page = os.path.join(directory, "index.html")
        subprocess.run([binary, os.path.join(ROOT, "Sources/viewgraph-example/page.json"), page], check=True,
                       capture_output=True)
        html = open(page, encoding="utf-8").read()
        with open(page, "w", encoding="utf-8") as handle:
            handle.write(html.replace("</body>", MEASURE + "</body>"))
        dom = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1024,2400", "--dump-dom",
             "file://" + page],
            check=True, capture_output=True, text=True, timeout=120).stdout
    start = dom.find('<pre id="vg-layout-report">')
    if start < 0:
        raise SystemExit("the browser's DOM has no layout report: the measuring script did not run")
    raw = dom[start + len('<pre id="vg-layout-report">'):dom.find("</pre>", start)]
    report = json.loads(raw.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"'))
    failures = []
    if report["paddingLeft"] < 1:
        failures.append("the page has no padding")
    if report["outside"]:
        failures.append(f"texts outside the page's padding: {report['outside'][:5]}")
    routes = report["routes"]
    depths = {route["depth"] for route in routes}
    if len(depths) < 3:
        failures.append(f"the route tree shows {len(depths)} levels: {routes}")
    for route in routes:
        if route["depth"] > 0 and not (route["parentLeft"] is not None and route["left"] > route["parentLeft"] + 4):
            failures.append(f"route '{route['text']}' (depth {route['depth']}) is not indented under its parent")
    if not report["titleSize"] or not report["componentTitleSize"] or \
            report["componentTitleSize"] >= report["titleSize"]:
        failures.append(f"component titles ({report['componentTitleSize']}px) are not smaller than the page title "
                        f"({report['titleSize']}px)")
    errors = [(error["text"], error["afterCaption"]) for error in report["errors"]]
    if errors != EXPECTED_ERRORS:
        failures.append(f"error lines {errors}, expected {EXPECTED_ERRORS}")
    version = subprocess.run([browser, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}: {len(routes)} routes at {len(depths)} depths, each right of its parent; page padding "
          f"{report['paddingLeft']}px, no text outside it; title {report['titleSize']}px, component titles "
          f"{report['componentTitleSize']}px; error lines: {len(errors)}, the expected ones")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
