#!/usr/bin/env python3
"""Sizes of the firmware's parts, for issue 16's limits: lines of each .cpp and, per class
(or struct with methods) declared in a header, its member functions and data members.

    cmake/part-sizes.py [ROOT=firmware] [--over]   (--over: only what exceeds a limit)

Counted from the header alone by a small parser, not a compiler: methods are member
function declarations (constructors and operators included, each overload once, defaulted
or deleted ones left out); data members are non-static fields (a declaration of several,
"int a, b;", counts each). Nested types count as classes of their own. Limits: a .cpp over
400 lines, a class over 25 methods or 20 data members.
"""
import re
import sys
from pathlib import Path

CPP_LIMIT, METHOD_LIMIT, MEMBER_LIMIT = 400, 25, 20


def strip(text):
    """Comments, strings and preprocessor lines out; newlines kept."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\])*'", "''", text)
    return re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)


def top_level_paren(decl):
    """True if decl has a '(' outside template angle brackets (a function declarator)."""
    depth = 0
    for ch in decl:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif ch == "(" and depth == 0:
            return True
    return False


def classify(decl, classes):
    """('method' | 'member' | None, count) for one member declaration."""
    d = " ".join(decl.split())
    if not d or d.endswith(":") and re.fullmatch(r"(public|private|protected)\s*:", d):
        return None, 0
    d = re.sub(r"^(public|private|protected)\s*:\s*", "", d)
    if re.match(r"(using|typedef|friend|enum|static_assert|template\s*<[^>]*>\s*(struct|class))\b", d):
        return None, 0
    if re.match(r"(struct|class|union)\b", d):
        return None, 0
    if top_level_paren(d.split("=")[0] if "=" in d and not re.search(r"operator\s*=", d) else d):
        if re.search(r"=\s*(default|delete)\s*$", d):
            return None, 0
        return "method", 1
    if re.match(r"(static|constexpr|inline static)\b", d):
        return None, 0
    # Several declarators: split on commas outside <> () {}.
    depth, count = 0, 1
    for ch in d.split("=")[0] if "{" not in d else d:
        if ch in "<({":
            depth += 1
        elif ch in ">)}":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return "member", count


def parse_classes(text, path):
    """[(name, methods, members)] of every class/struct body in the text."""
    out = []
    for m in re.finditer(r"\b(class|struct)\s+(\w+)(\s+final)?\s*(:[^{;]*)?\{", text):
        name, start = m.group(2), m.end()
        depth, i, decl, methods, members = 1, start, "", 0, 0
        while i < len(text) and depth > 0:
            ch = text[i]
            if ch == "{":
                if depth == 1:
                    # A body at class level: a function's (ends the declaration), a nested
                    # type's, or a brace initializer; skip it.
                    kind = "nested" if re.search(r"\b(struct|class|union|enum)\b[^;()]*$", decl) else "body"
                    j, d2 = i + 1, 1
                    while j < len(text) and d2:
                        d2 += {"{": 1, "}": -1}.get(text[j], 0)
                        j += 1
                    if kind == "nested":
                        decl = ""
                        i = j
                        # skip to the ';' closing the nested type
                        while i < len(text) and text[i] != ";":
                            i += 1
                        i += 1
                        continue
                    if top_level_paren(decl.split("=")[0]) and not re.search(r"=\s*$", decl.strip()):
                        what, n = classify(decl, None)
                        if what == "method":
                            methods += 1
                        decl = ""
                        i = j
                        if i < len(text) and text[i] == ";":
                            i += 1
                        continue
                    decl += text[i:j]  # brace initializer of a member
                    i = j
                    continue
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    break
            elif ch == ";" and depth == 1:
                what, n = classify(decl, None)
                if what == "method":
                    methods += n
                elif what == "member":
                    members += n
                decl = ""
                i += 1
                continue
            elif ch == ":" and depth == 1 and re.search(r"\b(public|private|protected)\s*$", decl):
                decl = ""
                i += 1
                continue
            if depth == 1:
                decl += ch
            i += 1
        out.append((name, methods, members))
    return out


def main(argv):
    root = Path(next((a for a in argv if not a.startswith("--")), "firmware"))
    over_only = "--over" in argv
    if not root.is_dir():
        print(f"part-sizes: {root}: no such folder", file=sys.stderr)
        return 2
    rows = []
    for cpp in sorted(root.rglob("*.cpp")):
        lines = len(cpp.read_text().splitlines())
        if not over_only or lines > CPP_LIMIT:
            rows.append((str(cpp.relative_to(root)), "", lines, "", ""))
    classes = []
    for h in sorted(root.rglob("*.h")):
        for name, methods, members in parse_classes(strip(h.read_text()), h):
            if methods == 0 and not over_only:
                continue  # plain records (stats, parameters) are not parts
            if over_only and methods <= METHOD_LIMIT and members <= MEMBER_LIMIT:
                continue
            classes.append((str(h.relative_to(root)), name, "", methods, members))
    print("| file | class | lines | methods | data members |")
    print("|---|---|---|---|---|")
    for r in rows + classes:
        print("| " + " | ".join(str(x) for x in r) + " |")
    over = [r for r in rows if r[2] > CPP_LIMIT] + [c for c in classes if c[3] > METHOD_LIMIT or c[4] > MEMBER_LIMIT]
    print(f"\n{len(over)} over the limits ({CPP_LIMIT} lines, {METHOD_LIMIT} methods, {MEMBER_LIMIT} data members)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
