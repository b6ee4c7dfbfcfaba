#!/usr/bin/python3
"""Checks that a fresh Debian machine has everything this build and its tests used, once
scripts/install-deps.sh has run: each file below must belong to a Debian package that the script
installs, that one of those packages depends on, or that every Debian system has.

  scripts/check-install-deps.py [--build DIR] [--spawn-log FILE] [--deps FILE]

What is checked:
  headers    every file under /usr/include that the compiler's dependency files (DIR/**/*.d) name, and
             those the headers of the system-library module maps they name include (cc -M);
  linked     every shared library the built executables and test bundle link (ldd);
  loaded     every library the sources load on first use: each "lib….so.N" string literal under
             Sources/ (dlopen through SharedLibrary and the C shims);
  programs   with --spawn-log, every program the tests started (Tests/ClipBridgeTestSupport/Process/
             SpawnLog.swift writes one absolute path per line).

Why: CI runs on a machine where a session may have installed a package by hand, so a missing install
step stays green there while a fresh machine fails to build (issue 37: libwayland-dev). This check
fails on the machine that hides the gap, naming the package and the file.

"Depends on" is read from dpkg's own records of the installed packages (Depends and Pre-Depends, as
`apt-get install --no-install-recommends` follows them), not from apt's lists: it works without
`apt-get update`, and for "a | b" it follows only what apt would pick on a fresh machine — the first
alternative (or, when that is a virtual package, the installed packages providing it) — so a package
that merely satisfies an alternative because it was installed by hand does not count.
"Every Debian system has" means Essential: yes or Priority: required (debootstrap's minbase), and what
those depend on. Files outside dpkg's knowledge are accepted only where this project puts them: the
build folder and the repository, the Swift toolchain (/opt/swift, which the README asks for), and
/opt/clipbridge-tests (scripts/install-test-sway.sh). Exit status: 0 clean, 1 something missing,
2 the check could not run.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OWN_PREFIXES = ("/opt/swift", "/opt/clipbridge-tests")


def fail_to_run(message):
    print(f"check-install-deps: {message}", file=sys.stderr)
    sys.exit(2)


def listed_packages(deps_script):
    """The words of the `packages=( … )` array in install-deps.sh, comments dropped."""
    words, inside = [], False
    with open(deps_script) as handle:
        for line in handle:
            if not inside and re.match(r"\s*packages=\(", line):
                inside = True
                continue
            if inside and re.match(r"\s*\)", line):
                break
            if inside:
                words += line.split("#", 1)[0].split()
    if not words:
        fail_to_run(f"found no packages=( … ) list in {deps_script}")
    return words


class InstalledPackages:
    """dpkg's records of the installed packages: what each depends on and provides."""

    def __init__(self):
        fields = "${Package}\t${Status}\t${Essential}\t${Priority}\t${Pre-Depends}\t${Depends}\t${Provides}\n"
        output = subprocess.run(["dpkg-query", "-W", "-f", fields], capture_output=True, text=True, check=True).stdout
        self.depends, self.providers, self.base = {}, {}, []
        for line in output.splitlines():
            name, status, essential, priority, pre_depends, depends, provides = line.split("\t")
            if not status.endswith(" installed"):
                continue
            self.depends[name] = [group for field in (pre_depends, depends) for group in split_relations(field)]
            for provided in split_relations(provides):
                self.providers.setdefault(provided[0], []).append(name)
            if essential == "yes" or priority == "required":
                self.base.append(name)

    def closure(self, roots):
        """Every installed package reached from `roots` by the alternatives apt would pick."""
        reached, stack = set(), list(roots)
        while stack:
            name = stack.pop()
            if name in reached:
                continue
            reached.add(name)
            for alternatives in self.depends.get(name, []):
                first = alternatives[0]
                stack += [first] if first in self.depends else self.providers.get(first, [])
        return reached


def split_relations(field):
    """'a (>= 1), b:any | c' → [['a'], ['b', 'c']]: package names only, architecture qualifiers dropped."""
    groups = []
    for group in filter(None, (part.strip() for part in field.split(","))):
        names = [re.sub(r"[\s(:].*", "", alternative.strip()) for alternative in group.split("|")]
        groups.append([name for name in names if name])
    return [group for group in groups if group]


def owning_packages(paths):
    """{path: [packages]} for each path dpkg knows; a path is tried as given, with and without the /usr
    prefix (merged /usr: dpkg records /bin/sh, the file is /usr/bin/sh), and resolved through symlinks.
    Reads dpkg's file lists (/var/lib/dpkg/info/*.list) once: a `dpkg -S` per file took seconds."""
    wanted = {}
    for path in paths:
        candidates = [path, os.path.realpath(path)]
        for candidate in list(candidates):
            candidates.append(candidate[4:] if candidate.startswith("/usr/") else "/usr" + candidate)
        for candidate in candidates:
            wanted.setdefault(candidate, []).append(path)
    owners = {}
    for listing in glob.glob("/var/lib/dpkg/info/*.list"):
        package = os.path.basename(listing)[: -len(".list")].split(":")[0]
        with open(listing, errors="replace") as handle:
            for line in handle:
                for path in wanted.get(line.rstrip("\n"), ()):
                    owners.setdefault(path, set()).add(package)
    return {path: sorted(packages) for path, packages in owners.items()}


def headers(build):
    named = {}
    module_maps = set()
    for dependency_file in glob.glob(os.path.join(build, "**", "*.d"), recursive=True):
        with open(dependency_file, errors="replace") as handle:
            for word in handle.read().replace("\\\n", " ").split():
                if word.startswith("/usr/include/"):
                    named.setdefault(os.path.normpath(word), dependency_file)
                elif word.startswith(os.path.join(ROOT, "Sources")) and word.endswith("module.modulemap"):
                    module_maps.add(word)
    if not named and not module_maps:
        fail_to_run(f"no compiler dependency files under {build} (build first)")
    # A Swift file's dependency file names a system library's module map, not the headers behind it (CSQLite,
    # CLibYAML, CLibCrypto): those are what the module map's headers include, as the C preprocessor finds them.
    for module_map in sorted(module_maps):
        for header in system_headers(module_map):
            named.setdefault(header, module_map)
    return {path: f"a header, named by {os.path.relpath(source, ROOT)}" for path, source in named.items()}


def system_headers(module_map):
    """The /usr/include files the headers of `module_map` include (`cc -M`)."""
    directory = os.path.dirname(module_map)
    with open(module_map) as handle:
        listed = re.findall(r'^\s*(?:umbrella\s+)?header\s+"([^"]+)"', handle.read(), re.MULTILINE)
    found = set()
    for header in listed:
        path = os.path.join(directory, header)
        if not os.path.isfile(path):
            continue
        result = subprocess.run(["cc", "-M", "-x", "c", "-I", directory, path], capture_output=True, text=True)
        if result.returncode != 0:
            # A header the compiler cannot find is missing: name it as the compiler does.
            missing = re.findall(r"fatal error: ([^:]+): No such file", result.stderr)
            print(f"check-install-deps: {os.path.relpath(module_map, ROOT)}: its header {header} does not compile here: "
                  + (f"{missing[0]} is missing" if missing else result.stderr.strip()[:300]), file=sys.stderr)
            sys.exit(1)
        for word in result.stdout.replace("\\\n", " ").split():
            if word.startswith("/usr/include/"):
                found.add(os.path.normpath(word))
    return found


def linked_libraries(build):
    """What ldd resolves for every ELF executable or shared object the debug build made at its top level."""
    found = {}
    for product in glob.glob(os.path.join(build, "debug", "*")) + glob.glob(os.path.join(build, "release", "*")):
        if os.path.isdir(product) and product.endswith(".xctest"):
            continue
        if not os.path.isfile(product) or not os.access(product, os.X_OK):
            continue
        with open(product, "rb") as handle:
            if handle.read(4) != b"\x7fELF":
                continue
        output = subprocess.run(["ldd", product], capture_output=True, text=True).stdout
        for match in re.finditer(r"=> (/\S+)", output):
            found.setdefault(match.group(1), f"linked by {os.path.relpath(product, ROOT)}")
        for match in re.finditer(r"^\s*(\S+) => not found", output, re.MULTILINE):
            found.setdefault(match.group(1), f"linked by {os.path.relpath(product, ROOT)}, not found")
    return found


def loaded_libraries():
    """Each soname string literal in Sources/, resolved through the dynamic loader's cache."""
    cache = {}
    for line in subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout.splitlines():
        match = re.match(r"\s*(\S+) \(([^)]*)\) => (\S+)", line)
        if match and ("x86-64" in match.group(2) or "64bit" in match.group(2) or "AArch64" in match.group(2)):
            cache.setdefault(match.group(1), match.group(3))
    found = {}
    for source in glob.glob(os.path.join(ROOT, "Sources", "**", "*.*"), recursive=True):
        if not source.endswith((".swift", ".c", ".h")):
            continue
        with open(source, errors="replace") as handle:
            for soname in re.findall(r'"(lib[A-Za-z0-9_+.-]*\.so\.[0-9.]+)"', handle.read()):
                where = f"loaded on first use by {os.path.relpath(source, ROOT)}"
                found.setdefault(cache.get(soname, soname), where if soname in cache else where + ", not found")
    return found


def spawned_programs(log):
    found = {}
    try:
        with open(log) as handle:
            for line in handle:
                program = line.strip()
                if program:
                    found.setdefault(program, "started by a test")
    except FileNotFoundError:
        fail_to_run(f"no spawn log at {log}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, ".build"))
    parser.add_argument("--spawn-log")
    parser.add_argument("--deps", default=os.path.join(ROOT, "scripts", "install-deps.sh"))
    arguments = parser.parse_args()

    installed = InstalledPackages()
    listed = listed_packages(arguments.deps)
    not_installed = [name for name in listed if name not in installed.depends]
    closure = installed.closure([name for name in listed if name in installed.depends] + installed.base)

    if arguments.spawn_log:
        files = spawned_programs(arguments.spawn_log)
    else:
        if not os.path.isdir(arguments.build):
            fail_to_run(f"no build in {arguments.build} (build first)")
        files = {**headers(arguments.build), **linked_libraries(arguments.build), **loaded_libraries()}

    problems = [f"listed in {os.path.relpath(arguments.deps, ROOT)} but not installed here: {name} (run the script)"
                for name in not_installed]
    own = (ROOT, os.path.realpath(ROOT)) + OWN_PREFIXES
    checkable = {path: why for path, why in files.items()
                 if path.startswith("/") and not os.path.realpath(path).startswith(own) and not path.startswith(own)}
    for path, why in sorted(files.items()):
        if not path.startswith("/"):
            problems.append(f"not on this machine: {path} ({why}) — no installed package provides it")
    owners = owning_packages(checkable)
    for path, why in sorted(checkable.items()):
        packages = owners.get(path)
        if not packages:
            problems.append(f"from no Debian package: {path} ({why}) — installed by hand, a fresh machine lacks it")
        elif not closure.intersection(packages):
            problems.append(f"missing from {os.path.relpath(arguments.deps, ROOT)}: {' or '.join(packages)} "
                            f"(provides {path}, {why})")
    what = "programs the tests started" if arguments.spawn_log else "headers, linked and loaded libraries"
    if problems:
        print("\n".join(problems))
        print(f"check-install-deps: {len(problems)} of {len(files)} {what} would be missing on a fresh machine")
        return 1
    print(f"check-install-deps: {len(files)} {what}, each from a package "
          f"{os.path.relpath(arguments.deps, ROOT)} installs or every Debian system has")
    return 0


if __name__ == "__main__":
    sys.exit(main())
