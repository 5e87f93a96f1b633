#!/usr/bin/env python3
"""Fails when a C++ function is longer than the limit (80 lines): issue 26's "no function over 80
lines", kept by a meson test (tests/meson.build, suite 'checks').

usage: function_lengths.py [--limit N] [--root DIR] [PATH...]

PATHs are files or folders under DIR (default: the project's root), by default src and
tests/fuzz (the unit tests' long cases are their own matter). A function's length counts the lines
from its opening brace to its closing one, both included. Every function, member function,
constructor, lambda at namespace scope and fuzz test case (LLVMFuzzerTestOneInput) counts; a
lambda inside a function counts towards that function. Prints each function over the limit as
path:line: name (N lines) and exits 1 if there is one.

Comments, string and character literals (raw strings R"x(...)x" too) and preprocessor lines are
blanked before the braces are read, so no brace inside them counts. A brace is a function's body
when the words before it, since the last statement or block at its level, end with a parameter
list: `)` followed only by qualifiers (const, noexcept, override...), a trailing return type or a
constructor's member initializers.
"""
import argparse
import os
import re
import sys

LIMIT = 80
DEFAULT_PATHS = ["src", "tests/fuzz"]
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")


def blank(text):
    """The text with comments, literals' contents and preprocessor lines replaced by spaces; the
    newlines stay, so a position keeps its line."""
    out = []
    i, n = 0, len(text)
    line_start = True  # only spaces since the last newline (a '#' there starts a directive)

    def keep_newlines(chunk):
        return "".join("\n" if c == "\n" else " " for c in chunk)

    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if line_start and c == "#":
            end = i
            while end < n and text[end] != "\n":  # a directive continues over backslash-newlines
                end += 1
                if text[end - 1] == "\\" and end < n and text[end] == "\n":
                    end += 1
            out.append(keep_newlines(text[i:end]))
            i = end
            continue
        if c in " \t\r":
            out.append(c)
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(keep_newlines(text[i:end]))
            i = end
        elif c.isalnum() or c == "_":
            m = re.compile(r"[0-9](?:[0-9A-Za-z_.']|[eEpP][+-])*" if c.isdigit() else r"[A-Za-z0-9_]+").match(text, i)
            word = m.group(0)
            i = m.end()
            if not c.isdigit() and word in ("R", "LR", "uR", "UR", "u8R") and text.startswith('"', i):
                m = re.compile(r'"([^()\\ \t\n]{0,16})\(').match(text, i)
                if m:  # a raw string: its text runs to )delimiter"
                    close = ")" + m.group(1) + '"'
                    end = text.find(close, m.end())
                    end = n if end < 0 else end + len(close)
                    out.append(word + '"' + keep_newlines(text[i + 1:end - 1]) + '"')
                    i = end
                    continue
            out.append(word)
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j, n - 1)
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.']*|->|::|&&|\|\||\"\s*\"|'\s*'|\S")
QUALIFIERS = {"const", "noexcept", "override", "final", "mutable", "volatile", "&", "&&", "constexpr"}
CONTAINERS = {"namespace", "class", "struct", "union", "enum", "TEST_SUITE"}


def tokens(clean):
    """(token, line) pairs of the blanked text."""
    line = 1
    last = 0
    for m in TOKEN.finditer(clean):
        line += clean.count("\n", last, m.start())
        last = m.start()
        yield m.group(0), line


def without_template_prefix(head):
    """The head without its leading `template <...>` lists and attributes."""
    while True:
        if head[:1] == ["template"] and head[1:2] == ["<"]:
            depth, k = 0, 1
            while k < len(head):
                depth += {"<": 1, ">": -1}.get(head[k], 0)
                k += 1
                if depth == 0:
                    break
            head = head[k:]
        elif head[:2] == ["[", "["]:
            k = 2
            while k + 1 < len(head) and head[k : k + 2] != ["]", "]"]:
                k += 1
            head = head[k + 2 :]
        elif head[:1] in (["public"], ["private"], ["protected"]) and head[1:2] == [":"]:
            head = head[2:]
        else:
            return head


def ends_with_parameters(head):
    """Whether a head ends like a function's declarator: its last group at depth 0 is a
    parenthesised list followed by qualifiers or a trailing return type, or a constructor's
    member initializers follow a parameter list."""
    k = len(head)
    depth = 0
    for j, t in enumerate(head):  # a trailing return type: the declarator ends before it
        depth += {"(": 1, ")": -1}.get(t, 0)
        if t == "->" and depth == 0 and head[j - 1 : j] != ["operator"]:
            k = j
    while k > 0 and head[k - 1] in QUALIFIERS:
        k -= 1
    if k > 0 and head[k - 1] == ")":
        return True
    # `Name(args) : member_{value} {`: an initializer in braces ends the head
    return k > 0 and head[k - 1] == "}" and ":" in head and ")" in head


def is_function_head(head):
    """Whether the brace after `head` opens a function's body: a declarator ending with its
    parameters, or a lambda given to a name (`const auto f = [](int x) {`); not an initializer
    (`Table t = make(x) {` cannot be, `x = {` is not)."""
    if "(" not in head or not ends_with_parameters(head):
        return False
    before = head[: head.index("(")]
    if "operator" in before:  # operator=, operator== name a function
        before = before[: before.index("operator")]
    return "=" not in before or "[" in head


def function_name(head):
    """The declarator's name: the words before the first '(' outside any template arguments; a
    lambda's, the name it is given."""
    if "=" in head and "[" in head and head.index("=") < head.index("["):
        return head[head.index("=") - 1] + " (lambda)"
    angle = 0
    for k, t in enumerate(head):
        if t == "<" and k > 0 and re.match(r"[A-Za-z_]", head[k - 1]):
            angle += 1
        elif t == ">" and angle:
            angle -= 1
        elif t == "(" and not angle:
            j = k - 1
            if j >= 0 and head[j - 1 : j] == ["operator"]:  # operator=, operator()
                j -= 1
            while j >= 2 and head[j - 1] in ("::", "~"):  # Class::name, Class::~Class
                j -= 2 if head[j - 1] == "::" else 1
            return "".join(head[max(j, 0) : k]) or "(lambda)"
    return "(unnamed)"


def long_functions(text, limit):
    """(line, name, length) of every function of `text` longer than `limit` lines."""
    found = []
    # Each open brace: what it is ('scope' holds declarations: a namespace, a class, `extern "C"`;
    # 'function'; 'init' an initializer at a declaration's level; 'other' any brace inside those)
    # and, for a function, its line and name.
    stack = []
    head = []  # the tokens since the last statement or block at the current declaration level
    for t, line in tokens(blank(text)):
        # inside a function's body or an initializer: only the braces' nesting matters
        inside_code = any(kind in ("function", "other", "init") for kind, *_ in stack)
        if t == "{":
            if inside_code:
                stack.append(("other",))
                continue
            h = without_template_prefix(head)
            if not h or h[0] in CONTAINERS or (h[0] == "extern" and len(h) == 2) or "namespace" in h:
                stack.append(("scope",))
                head = []
            elif is_function_head(h):
                stack.append(("function", line, function_name(h)))
            else:
                stack.append(("init",))
                head.append(t)
        elif t == "}":
            if not stack:
                continue
            opened = stack.pop()
            if opened[0] == "function":
                length = line - opened[1] + 1
                if length > limit:
                    found.append((opened[1], opened[2], length))
                head = []
            elif opened[0] == "scope":
                head = []
            elif opened[0] == "init" and not any(kind in ("function", "other", "init") for kind, *_ in stack):
                head.append(t)  # `member_{value}` of a constructor's initializers: the head goes on
        elif inside_code:
            continue
        elif t == ";":
            head = []
        else:
            head.append(t)
    return found


def source_files(root, paths):
    for path in paths:
        full = os.path.join(root, path)
        if os.path.isfile(full):
            yield path
            continue
        for folder, dirs, files in os.walk(full):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(folder, name), root)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("paths", nargs="*", default=DEFAULT_PATHS)
    args = parser.parse_args()
    over = 0
    for path in source_files(args.root, args.paths):
        with open(os.path.join(args.root, path), encoding="utf-8") as f:
            for line, name, length in long_functions(f.read(), args.limit):
                print(f"{path}:{line}: {name} ({length} lines, over {args.limit})")
                over += 1
    if over:
        print(f"{over} function(s) over {args.limit} lines: split each where its steps are")
        return 1
    print(f"no function over {args.limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
