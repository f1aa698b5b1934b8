#!/usr/bin/env python3
"""Each device target's code stays in its own folders (jit/<target>/, src/<target>/): generic
code names no target in its code (comments and messages may), and includes no target's header;
only the tables that list the targets (TABLES) and the tools do. Usage: target_folders.py
SOURCE_ROOT"""
import pathlib
import re
import sys

TARGETS = {"cuda": re.compile(r"\b\w*(cuda|Cuda|CUDA|nvrtc|Nvrtc|NVRTC)\w*\b")}
GENERIC = ["support", "analysis", "jit", "src", "translate"]
# The files that list the targets by name, and what each lists: a new target is a line in each.
TABLES = {
    "src/DeviceRegistry.cpp": "the backends: each one's name, OpenACC device type, constructor",
    "src/DeviceConfig.cpp": "JACC_DEVICES's entries (cuda:K, cuda:all)",
    "src/DeviceConfig.h": "the GPU count JACC_DEVICES's default and cuda:all depend on",
    "src/AccDeviceVars.h": "ACC_DEVICE_TYPE's values (nvidia) and the devices they stand for",
    "src/AccDeviceVars.cpp": "ACC_DEVICE_TYPE's values (nvidia) and the devices they stand for",
    "support/Env.h": "the environment variables, a target's own (JACC_CUDA_*) among them",
    "support/Env.cpp": "the environment variables, a target's own (JACC_CUDA_*) among them",
}


def code_only(text):
    """Text with comments, string and character literals blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            out.append(c + c)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def main(root):
    root = pathlib.Path(root)
    bad = []
    for top in GENERIC:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".cpp", ".h"):
                continue
            rel = path.relative_to(root).as_posix()
            if any(f"/{t}/" in f"/{rel}" for t in TARGETS) or rel in TABLES:
                continue
            text = path.read_text(errors="replace")
            for t in TARGETS:
                for m in re.finditer(rf'#include "(jit|src)/{t}/[^"]+"', text):
                    line = text.count("\n", 0, m.start()) + 1
                    bad.append(f"{rel}:{line}: includes a {t} header: {m.group(0)}")
            code = code_only(text)
            for t, pattern in TARGETS.items():
                for m in pattern.finditer(code):
                    line = code.count("\n", 0, m.start()) + 1
                    bad.append(f"{rel}:{line}: names the {t} target in generic code: {m.group(0)}")
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} places: move the code into the target's folder behind its interface")
        return 1
    print("every target's code is in its folders")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
