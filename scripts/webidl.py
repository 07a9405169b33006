"""A parser for the WebIDL of the WebNN specification (the `<script type=idl>` blocks of webnn.bs).

It reads the subset of WebIDL the spec uses — interfaces (partial, mixins, `includes`),
dictionaries (partial, inherited), enums, typedefs, operations with optional arguments and
defaults, attributes, constructors, extended attributes on types, unions, sequence, record,
Promise and FrozenArray — and fails with the line it cannot read rather than guessing. Whatever the
generators need of the spec's API surface comes from the model this module returns.

    spec = webidl.load(path_to_webnn_bs)
    spec.interfaces["MLGraphBuilder"].operations  # in declaration order, partials merged
    spec.dictionaries["MLConv2dOptions"].all_members(spec)  # inherited first
"""
import re
from dataclasses import dataclass, field

_TOKEN = re.compile(
    r"\s+|//[^\n]*|/\*.*?\*/"
    r"|(?P<string>\"[^\"]*\")"
    r"|(?P<number>-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<other>\.\.\.|[{}();:,<>=?\[\]])",
    re.S,
)


@dataclass
class Type:
    """An IDL type. kind: "named" (name), "sequence"/"frozen"/"promise" (args[0]), "record"
    (args[0], args[1]) or "union" (args). ext: the extended attributes on the type."""

    kind: str
    name: str = ""
    args: list = field(default_factory=list)
    nullable: bool = False
    ext: tuple = ()

    def __str__(self):
        ext = f"[{', '.join(self.ext)}] " if self.ext else ""
        if self.kind == "named":
            s = self.name
        elif self.kind == "union":
            s = "(" + " or ".join(str(a) for a in self.args) + ")"
        else:
            generic = {"sequence": "sequence", "frozen": "FrozenArray", "promise": "Promise", "record": "record"}
            s = f"{generic[self.kind]}<{', '.join(str(a) for a in self.args)}>"
        return ext + s + ("?" if self.nullable else "")


@dataclass
class Argument:
    name: str
    type: Type
    optional: bool = False
    default: object = None  # a Python value; "{}" and "[]" stay strings


@dataclass
class Operation:
    name: str  # "" for the constructor
    return_type: Type
    arguments: list

    def min_args(self):
        return sum(1 for a in self.arguments if not a.optional)


@dataclass
class Attribute:
    name: str
    type: Type
    readonly: bool


@dataclass
class Interface:
    name: str
    operations: list = field(default_factory=list)
    attributes: list = field(default_factory=list)
    constructors: list = field(default_factory=list)
    ext: tuple = ()


@dataclass
class Member:
    name: str
    type: Type
    required: bool = False
    default: object = None


@dataclass
class Dictionary:
    name: str
    inherits: str = ""
    members: list = field(default_factory=list)

    def all_members(self, spec):
        """Every member, the inherited dictionary's first, as WebIDL converts them."""
        base = spec.dictionaries[self.inherits].all_members(spec) if self.inherits else []
        return base + self.members


@dataclass
class Spec:
    interfaces: dict = field(default_factory=dict)
    dictionaries: dict = field(default_factory=dict)
    enums: dict = field(default_factory=dict)
    typedefs: dict = field(default_factory=dict)

    def resolve(self, t):
        """The type behind a typedef name (once; typedefs here do not chain)."""
        if t.kind == "named" and t.name in self.typedefs:
            return self.typedefs[t.name]
        return t


class ParseError(Exception):
    pass


class _Parser:
    def __init__(self, text):
        self.tokens = []
        pos, line = 0, 1
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                raise ParseError(f"line {line}: cannot read {text[pos:pos + 20]!r}")
            kind = m.lastgroup
            if kind:
                self.tokens.append((kind, m.group(kind), line))
            line += text.count("\n", pos, m.end())
            pos = m.end()
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.tokens[j][1] if j < len(self.tokens) else None

    def next(self):
        if self.i >= len(self.tokens):
            raise ParseError("unexpected end of the IDL")
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expect(self, value):
        kind, v, line = self.next()
        if v != value:
            raise ParseError(f"line {line}: expected {value!r}, got {v!r}")

    def ident(self):
        kind, v, line = self.next()
        if kind != "ident":
            raise ParseError(f"line {line}: expected a name, got {v!r}")
        return v

    def accept(self, value):
        if self.peek() == value:
            self.i += 1
            return True
        return False

    def ext_attrs(self):
        if not self.accept("["):
            return ()
        attrs, depth, cur = [], 0, []
        while True:
            _, v, _ = self.next()
            if v == "]" and depth == 0:
                break
            if v == "(":
                depth += 1
            elif v == ")":
                depth -= 1
            if v == "," and depth == 0:
                attrs.append(" ".join(cur))
                cur = []
            else:
                cur.append(v)
        if cur:
            attrs.append(" ".join(cur))
        return tuple(a.replace(" ( ", "(").replace(" )", ")").replace(" , ", ",") for a in attrs)

    def type(self):
        ext = self.ext_attrs()
        if self.accept("("):
            members = [self.type()]
            while self.accept("or"):
                members.append(self.type())
            self.expect(")")
            t = Type("union", args=members, ext=ext)
        else:
            name = self.ident()
            if name in ("sequence", "FrozenArray", "Promise", "record"):
                self.expect("<")
                args = [self.type()]
                if name == "record":
                    self.expect(",")
                    args.append(self.type())
                self.expect(">")
                kind = {"sequence": "sequence", "FrozenArray": "frozen", "Promise": "promise", "record": "record"}[name]
                t = Type(kind, args=args, ext=ext)
            else:
                if name == "unsigned":
                    name += " " + self.ident()
                if name in ("unrestricted",):
                    name += " " + self.ident()
                if name.endswith("long") and self.peek() == "long":
                    name += " " + self.ident()
                t = Type("named", name=name, ext=ext)
        if self.accept("?"):
            t.nullable = True
        return t

    def default(self):
        kind, v, line = self.next()
        if kind == "string":
            return v[1:-1]
        if kind == "number":
            return float(v) if re.search(r"[.eE]", v) else int(v)
        if v in ("true", "false"):
            return v == "true"
        if v == "null":
            return None
        if v == "{":
            self.expect("}")
            return "{}"
        if v == "[":
            self.expect("]")
            return "[]"
        raise ParseError(f"line {line}: cannot read the default value {v!r}")

    def arguments(self):
        self.expect("(")
        args = []
        while not self.accept(")"):
            ext = self.ext_attrs()  # on an argument, [EnforceRange] applies to its type
            optional = self.accept("optional")
            t = self.type()
            t.ext = ext + t.ext
            name = self.ident()
            default = self.default() if self.accept("=") else None
            args.append(Argument(name, t, optional, default))
            if not self.accept(","):
                self.expect(")")
                break
        return args

    def interface_members(self, iface):
        self.expect("{")
        while not self.accept("}"):
            self.ext_attrs()
            if self.accept("constructor"):
                iface.constructors.append(Operation("", Type("named", name=iface.name), self.arguments()))
            elif self.peek() in ("readonly", "attribute"):
                readonly = self.accept("readonly")
                self.expect("attribute")
                t = self.type()
                iface.attributes.append(Attribute(self.ident(), t, readonly))
            else:
                t = self.type()
                name = self.ident()
                iface.operations.append(Operation(name, t, self.arguments()))
            self.expect(";")
        self.expect(";")

    def dictionary_members(self, d):
        self.expect("{")
        while not self.accept("}"):
            ext = self.ext_attrs()
            required = self.accept("required")
            t = self.type()
            t.ext = ext + t.ext
            name = self.ident()
            default = self.default() if self.accept("=") else None
            d.members.append(Member(name, t, required, default))
            self.expect(";")
        self.expect(";")

    def parse(self):
        spec = Spec()
        mixins = {}
        while self.i < len(self.tokens):
            ext = self.ext_attrs()
            partial = self.accept("partial")
            if self.accept("interface"):
                mixin = self.accept("mixin")
                name = self.ident()
                if self.accept(":"):
                    self.ident()
                table = mixins if mixin else spec.interfaces
                if name not in table:
                    table[name] = Interface(name, ext=ext)
                elif not partial:
                    raise ParseError(f"interface {name} is defined twice")
                self.interface_members(table[name])
            elif self.accept("dictionary"):
                name = self.ident()
                inherits = self.ident() if self.accept(":") else ""
                if name not in spec.dictionaries:
                    spec.dictionaries[name] = Dictionary(name, inherits)
                elif not partial:
                    raise ParseError(f"dictionary {name} is defined twice")
                self.dictionary_members(spec.dictionaries[name])
            elif self.accept("enum"):
                name = self.ident()
                self.expect("{")
                values = []
                while not self.accept("}"):
                    kind, v, line = self.next()
                    if kind != "string":
                        raise ParseError(f"line {line}: enum {name}: expected a string, got {v!r}")
                    values.append(v[1:-1])
                    self.accept(",")
                self.expect(";")
                spec.enums[name] = values
            elif self.accept("typedef"):
                t = self.type()
                spec.typedefs[self.ident()] = t
                self.expect(";")
            else:
                # `Target includes Mixin;` — the mixin's members go to the target (Navigator's are
                # not WebNN's own interfaces and are dropped).
                target = self.ident()
                self.expect("includes")
                mixin = self.ident()
                self.expect(";")
                if target in spec.interfaces:
                    spec.interfaces[target].attributes += mixins[mixin].attributes
                    spec.interfaces[target].operations += mixins[mixin].operations
        return spec


def idl_blocks(bs_text):
    """The IDL of a Bikeshed source: every <script type=idl> block, in order."""
    return re.findall(r"<script type=[\"']?idl[\"']?>(.*?)</script>", bs_text, re.S)


def parse(idl_text):
    return _Parser(idl_text).parse()


def load(bs_path):
    with open(bs_path, encoding="utf-8") as f:
        return parse("\n".join(idl_blocks(f.read())))
