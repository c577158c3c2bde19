#!/usr/bin/env python3
"""Fails when the public API broke since the last release without the changelog saying so.

The last release is `.ci/api-baseline`: its version and commit. `swift package
diagnose-api-breaking-changes` compares every library product's modules with that commit; a
breakage it reports passes only when CHANGELOG.md lists its exact message ("API breakage: ...")
as a bullet under a version newer than the release's.
"""

import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
VERSION = re.compile(r"^## \[?(\d+)\.(\d+)\.(\d+)")


def main() -> int:
    version_text, commit = (ROOT / ".ci" / "api-baseline").read_text().split()[:2]
    baseline = tuple(int(part) for part in version_text.split("."))
    if subprocess.run(["git", "cat-file", "-e", commit + "^{commit}"], cwd=ROOT).returncode != 0:
        print(f"The release commit {commit} ({version_text}) is not in this clone; a full clone is needed.")
        return 1
    allowed = []
    current = None
    in_code = False
    for line in (ROOT / "CHANGELOG.md").read_text().splitlines():
        # The file's example, in a code block, is not a version.
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        match = VERSION.match(line)
        if match:
            current = tuple(int(part) for part in match.groups())
            continue
        bullet = line.strip()
        if current is not None and current > baseline and bullet.startswith("- API breakage:"):
            allowed.append(bullet[2:].strip())
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as allowlist:
        allowlist.write("\n".join(allowed) + "\n")
    print(f"Comparing with {version_text} ({commit[:12]}); {len(allowed)} breakage(s) named in CHANGELOG.md.")
    result = subprocess.run(
        ["swift", "package", "diagnose-api-breaking-changes", commit, "--breakage-allowlist-path", allowlist.name],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    report = [line for line in (result.stdout + result.stderr).splitlines() if not line.startswith("[")]
    print("\n".join(report))
    if result.returncode != 0:
        print(
            f"\nThe public API broke since {version_text}. Name each breakage above, as written, in a "
            f"'### Breaking' list under a new version in CHANGELOG.md (source-breaking changes bump the "
            f"minor version before 1.0)."
        )
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
