"""The files: the graph in the GraphML of remat-plan(5) (writer and reader)
and the plan reader.  No PyTorch here: the writer takes any graph whose nodes
have the attributes of graph.OpNode."""

import decimal
import math
import os
import re
import stat
import tempfile
import xml.etree.ElementTree as ET
import xml.parsers.expat

from .errors import UserError

NS = 'http://graphml.graphdrawing.org/xmlns'

# The keys remat-export writes: (id, for, attr.name, attr.type, default).
KEYS = [
    ('cost', 'node', 'cost', 'double', None),
    ('mem', 'node', 'mem', 'long', None),
    ('kind', 'node', 'kind', 'string', 'forward'),
    ('op', 'node', 'op', 'string', None),
    ('ws', 'node', 'workspace', 'long', '0'),
    ('rc', 'node', 'recompute', 'boolean', 'true'),
    ('out', 'node', 'output', 'boolean', 'false'),
    ('name', 'graph', 'name', 'string', None),
    ('fixed', 'graph', 'fixed_mem', 'long', None),
    ('unit', 'graph', 'cost_unit', 'string', None),
    ('model', 'graph', 'model', 'string', None),
    ('batch', 'graph', 'batch', 'long', None),
    ('size', 'graph', 'size', 'long', None),
    ('shape', 'graph', 'input_shape', 'string', None),
    ('classes', 'graph', 'num_classes', 'long', None),
    ('seed', 'graph', 'seed', 'long', None),
    ('coarsen', 'graph', 'coarsen', 'long', None),
    ('device', 'graph', 'device', 'string', None),
    ('torch', 'graph', 'torch_version', 'string', None),
    ('dtype', 'graph', 'input_dtype', 'string', None),
    ('classdim', 'graph', 'class_dim', 'string', None),
    ('loss', 'graph', 'loss', 'string', None),
    ('autocast', 'graph', 'autocast', 'string', None),
    ('costmodel', 'graph', 'cost_model', 'string', None),
]
KEY_ID = {name: kid for kid, _, name, _, _ in KEYS}


# ---------------------------------------------------------------------------
# Writing the graph.

def check_writable(path):
    """Fails early, before the slow tracing, if FILE cannot be written
    (where _write_atomically will write: a symbolic link's target)."""
    if os.path.isdir(path):
        raise UserError('%s is a directory' % path)
    target = os.path.realpath(path) if os.path.islink(path) else path
    directory = os.path.dirname(target) or '.'
    if not os.path.isdir(directory):
        raise UserError('cannot write %s: no directory %s' % (path, directory))
    if not os.access(directory, os.W_OK | os.X_OK) or (
            os.path.exists(target) and not os.access(target, os.W_OK)):
        raise UserError('cannot write %s: permission denied' % path)


def write_graph(path, graph, spec):
    """Writes the graph (a graph.JointGraph, or anything with its nodes and
    fixed_mem) made for spec (its name and attributes) to path, atomically."""
    _write_atomically(_graphml(graph, spec), path)


def _number(cost):
    """A cost in plain decimal notation (no exponent), to the nanosecond."""
    text = '%.6f' % cost
    return text.rstrip('0').rstrip('.') if '.' in text else text


def _graphml(graph, spec):
    """The GraphML document of a graph."""
    ET.register_namespace('', NS)

    def q(tag):
        return '{%s}%s' % (NS, tag)

    def data(parent, name, value):
        ET.SubElement(parent, q('data'), key=KEY_ID[name]).text = str(value)

    root = ET.Element(q('graphml'))
    for kid, kfor, name, ktype, default in KEYS:
        key = ET.SubElement(root, q('key'), {'id': kid, 'for': kfor,
                                              'attr.name': name, 'attr.type': ktype})
        if default is not None:
            ET.SubElement(key, q('default')).text = default
    g = ET.SubElement(root, q('graph'), edgedefault='directed')
    data(g, 'name', spec.name())
    data(g, 'fixed_mem', graph.fixed_mem)
    data(g, 'cost_unit', 'ms')
    for name, value in spec.attributes().items():
        data(g, name, value)
    for node in graph.nodes:
        el = ET.SubElement(g, q('node'), id=node.name)
        data(el, 'cost', _number(node.cost))
        data(el, 'mem', node.mem)
        if not node.forward:
            data(el, 'kind', 'backward')
        data(el, 'op', node.op)
        if node.workspace:
            data(el, 'workspace', node.workspace)
        if not node.recompute:
            data(el, 'recompute', 'false')
        if node.output:
            data(el, 'output', 'true')
    for node in graph.nodes:
        for pred in node.preds:
            ET.SubElement(g, q('edge'), source=pred.name, target=node.name)
    ET.indent(root)
    return ET.ElementTree(root)


def _dump(tree, f):
    """Writes the document to the binary file f."""
    tree.write(f, encoding='UTF-8', xml_declaration=True)
    f.write(b'\n')


def _write_atomically(tree, path):
    """Writes to a temporary file beside path, then renames it over path;
    as remat-plan(1) writes its plans: a symbolic link is followed, and a
    device or a pipe (a FIFO, /dev/stdout) is written as it is, since a
    rename would replace it."""
    if os.path.lexists(path) and not os.path.isdir(path):
        try:
            st = os.stat(path)
        except OSError:
            st = None       # a dangling link: its target is made
        if st is not None and not stat.S_ISREG(st.st_mode):
            try:
                with open(path, 'wb') as f:
                    _dump(tree, f)
            except OSError as e:
                raise UserError('cannot write %s: %s' % (path, e.strerror))
            return
        path = os.path.realpath(path)
    directory = os.path.dirname(path) or '.'
    try:
        fd, tmp = tempfile.mkstemp(prefix='.%s.' % os.path.basename(path),
                                   suffix='.tmp', dir=directory)
    except OSError as e:
        raise UserError('cannot write %s: %s' % (path, e.strerror))
    try:
        with os.fdopen(fd, 'wb') as f:
            _dump(tree, f)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        raise UserError('cannot write %s: %s' % (path, e.strerror))
    except BaseException:
        os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------
# Reading the graph and the plan.

def _at_line(path, line, message):
    """A UserError about line of the file at path."""
    return UserError('%s: line %d: %s' % (path, line, message))


class _Element:
    """An element of an XML file read with expat: its name (local where its
    prefix is declared), namespace, attributes, line, children and text."""
    __slots__ = ('tag', 'ns', 'attrs', 'line', 'children', 'text')

    def __init__(self, tag, ns, attrs, line):
        self.tag, self.ns, self.attrs, self.line = tag, ns, attrs, line
        self.children = []
        self.text = []

    def get(self, name, default=None):
        return self.attrs.get(name, default)

    def content(self):
        return ''.join(self.text).strip()


class _Namespaces:
    """The namespace scopes of a file read by expat without its namespace
    mode (which refuses a prefix that no namespace is declared for): names
    resolved as remat-plan resolves them.  Such a prefixed name is a name
    of its own ('x:node' is not 'node'), and only attributes without a
    prefix count."""

    def __init__(self):
        self.scopes = [{}]

    def enter(self, name, attrs):
        """(name, namespace or None, attributes) of an element that starts."""
        scope = self.scopes[-1]
        declared = {k[6:]: v for k, v in attrs.items()
                    if k == 'xmlns' or k.startswith('xmlns:')}
        if declared:
            scope = dict(scope, **declared)
        self.scopes.append(scope)
        prefix, _, local = name.rpartition(':')
        if prefix and prefix in scope:
            tag, ns = local, scope[prefix]
        else:
            tag, ns = name, None if prefix else scope.get('')
        return tag, ns or None, {k: v for k, v in attrs.items()
                                 if ':' not in k and k != 'xmlns'}

    def leave(self):
        self.scopes.pop()


MAX_DEPTH = 257     # elements open at once, the root included


def _parse(path, what):
    """The root _Element of the XML file at path (see _read), with the line
    of each element and its namespace (_Namespaces)."""
    parser = xml.parsers.expat.ParserCreate()
    parser.buffer_text = True
    parser.specified_attributes = True      # no DOCTYPE defaults
    stack, top, names = [], [], _Namespaces()

    def start(name, attrs):
        if len(stack) >= MAX_DEPTH:     # as libxml2 refuses it for remat-plan
            raise _at_line(path, parser.CurrentLineNumber,
                           'elements nested more than %d deep' % MAX_DEPTH)
        el = _Element(*names.enter(name, attrs), parser.CurrentLineNumber)
        (stack[-1].children if stack else top).append(el)
        stack.append(el)

    def end(name):
        stack.pop()
        names.leave()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = lambda text: stack and stack[-1].text.append(text)
    _refuse_ns_defaults(parser, path, NS)
    _run(parser, _read(path, what), path, what)
    return top[0]


def _refuse_ns_defaults(parser, path, ns_as_none):
    """Refuses, as remat-plan does, a DTD's default for a namespace
    declaration where it could change what is read (libxml2 applies it;
    expat here does not): all of them in a plan (ns_as_none None), in a
    graph all but GraphML's namespace made the default one and a foreign
    one given to a prefix."""
    def decl(elname, attname, type_, default, required):
        if default is None or not (attname == 'xmlns' or attname.startswith('xmlns:')):
            return
        same = ns_as_none is not None and default == ns_as_none
        if ns_as_none is not None and (same if attname == 'xmlns' else not same):
            return
        raise _at_line(path, parser.CurrentLineNumber, "a DTD default for the namespace "
                       "declaration '%s' of element '%s' is not supported"
                       % (attname, elname))
    parser.AttlistDeclHandler = decl


def _drop_foreign(root):
    """Removes the elements of other namespaces below root (extensions)."""
    todo = [root]
    while todo:
        el = todo.pop()
        el.children = [c for c in el.children if c.ns in (None, NS)]
        todo.extend(el.children)


def _run(parser, data, path, what):
    """Parses data with parser; a file expat cannot read is a UserError."""
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as e:
        raise UserError('%s %s is not well-formed XML: %s' % (what, path, e))
    except ValueError as e:     # "multi-byte encodings are not supported"
        raise UserError('cannot read %s %s: %s' % (what, path, e))


def _read(path, what):
    """The bytes of the XML file at path, read as remat-plan(5) says: a
    regular file (a FIFO would wait for a writer), with no NUL byte and no
    entity declarations."""
    try:
        with open(path, 'rb', opener=_open_nonblocking) as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise UserError('cannot read %s %s: not a regular file'
                                % (what, path))
            data = f.read()
    except OSError as e:
        raise UserError('cannot read %s %s: %s' % (what, path, e.strerror))
    for bad, why in ((b'\0', 'a NUL byte in the file (it is not a text document)'),
                     (b'<!ENTITY', 'entity declarations are refused')):
        if bad in data:     # (a NUL first: UTF-16 would hide an entity)
            raise _at_line(path, data[:data.index(bad)].count(b'\n') + 1, why)
    return data


def _open_nonblocking(path, flags):
    """Opens without waiting for a FIFO's writer (refused once open)."""
    return os.open(path, flags | os.O_NONBLOCK)


# Numbers as remat-plan reads them: decimal, in ASCII (float() would take
# '65_536' and other scripts' digits); byte counts whole (1048576.0 is one,
# 1e-400 is not) and at most 2^62, so that no sum of them overflows.
_DECIMAL = re.compile(r'[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?', re.ASCII)
MAX_BYTES = 1 << 62


def _read_number(where, text, integer):
    """An attribute as a number: finite and not negative, and for byte
    counts whole and exact; where names it in the message."""
    text = text.strip()
    value = None
    if _DECIMAL.fullmatch(text):
        try:
            value = decimal.Decimal(text) if integer else float(text)
        except decimal.InvalidOperation:    # an exponent past 10^18
            pass
    if integer and value is not None and value == value.to_integral_value():
        if value > MAX_BYTES:
            raise UserError('%s %s is too large' % (where, text))
        if value >= 0:
            return int(value)
    elif not integer and value is not None and 0 <= value < math.inf:
        return value
    raise UserError('%s %r is not a %s' % (
        where, text, 'whole number of bytes, not negative'
        if integer else 'finite number, not negative'))


# remat-plan(5)'s attributes of a node and of the graph: a key for one of
# them that gives it a default must give the one the others give, and a
# node gives each at most once.
_NODE_ATTRS = ('cost', 'mem', 'kind', 'op', 'workspace', 'recompute', 'output')
_GRAPH_ATTRS = ('fixed_mem', 'cost_unit', 'name')
_BOOLS = ('true', '1', 'false', '0')     # lower case


class GraphFile:
    """A GraphML graph as remat-plan(5) defines it: attributes matched by
    attr.name, defaults from <default>, edges as predecessor sets.  Whatever
    wrote it (remat-export or another tool).  Read with expat, so that a
    message about the file gives the line: lines[v] is node v's, and
    attr_lines[name] that of graph attribute name."""

    def __init__(self, path):
        self.path = path
        root = _parse(path, 'graph')
        if root.ns not in (None, NS):
            raise self.error(root.line, "root element '%s' is in namespace '%s', "
                             'expected %s or none' % (root.tag, root.ns, NS))
        _drop_foreign(root)
        graphs = [g for g in root.children if g.tag == 'graph']
        if root.tag != 'graphml' or len(graphs) != 1:
            raise self.error(graphs[1].line if len(graphs) > 1 else root.line,
                             'not a GraphML document with one graph')
        graph = graphs[0]
        if graph.get('edgedefault', 'directed') != 'directed':
            raise self.error(graph.line, 'edgedefault="%s": the graph must be directed'
                             % graph.get('edgedefault'))
        keys = {}   # id -> (for, attr.name, default text, the key's line)
        first = {}  # ('node' or 'graph', attr.name) -> the first key with a default
        after = False   # whether the <graph> came before
        for k in root.children:
            after = after or k is graph
            if k.tag == 'data' and k.get('key') not in keys:
                # the file's own data, not read; its key declared before
                raise self.error(k.line, '<data> has no key attribute' if k.get('key') is None
                                 else '<data> refers to undeclared key %r' % k.get('key'))
            if k.tag != 'key':
                continue
            if after:
                raise self.error(k.line, '<key> after the <graph> (keys are declared '
                                 'before the graph that uses them)')
            kid = k.get('id')
            if not kid:
                raise self.error(k.line, '<key> has no id attribute')
            if kid in keys:
                raise self.error(k.line, "duplicate key id '%s' (first declared at line %d)"
                                 % (kid, keys[kid][3]))
            default = [d for d in k.children if d.tag == 'default']
            name = (k.get('attr.name') or '').strip()
            # a key without attr.name names no attribute: its data is ignored
            keys[kid] = (k.get('for', 'all').strip() if name else None, name,
                         default[0].content() if default else None, k.line)
            for domain, known in (('node', _NODE_ATTRS), ('graph', _GRAPH_ATTRS)):
                if not default or name not in known or keys[kid][0] not in (domain, 'all'):
                    continue
                other = first.setdefault((domain, name), kid)
                if keys[other][2] != keys[kid][2]:
                    raise self.error(k.line, "key '%s' gives '%s' the default '%s', but key "
                                     "'%s' (line %d) gives it '%s'"
                                     % (kid, name, keys[kid][2], other, keys[other][3],
                                        keys[other][2]))

        def key(el):
            if el.get('key') is None:
                raise self.error(el.line, '<data> has no key attribute')
            if el.get('key') not in keys:
                raise self.error(el.line, '<data> refers to undeclared key %r'
                                 % el.get('key'))
            return keys[el.get('key')][:2]        # for, attr.name

        def defaults(domain):       # [(attr.name, text, the key's line)]
            return [(name, text, line) for kfor, name, text, line in keys.values()
                    if kfor in (domain, 'all') and text is not None]

        node_defaults = defaults('node')
        # graph attributes: attr.name -> text, and -> its line (remat-plan
        # takes only these two from a default)
        graph_defaults = [d for d in defaults('graph') if d[0] in ('fixed_mem', 'cost_unit')]
        self.attrs = {name: text for name, text, _ in graph_defaults}
        self.attr_lines = {name: line for name, _, line in graph_defaults}
        self.nodes = {}         # id -> {attr.name: text}
        self.lines = {}         # id -> line of <node>
        self.preds = {}         # id -> set of ids
        found = {}              # id -> {attr.name: line of its text}
        given_graph = set()     # the graph's attributes given by its <data>
        edges = []
        for el in graph.children:
            for inner in el.children if el.tag in ('node', 'edge') else ():
                if inner.tag in ('graph', 'hyperedge'):
                    raise self.error(inner.line, 'nested graphs are not supported'
                                     if inner.tag == 'graph' else
                                     'hyperedges are not supported')
                if el.tag == 'edge' and inner.tag == 'data':
                    key(inner)      # not read, but its key declared
            if el.tag == 'hyperedge':
                raise self.error(el.line, 'hyperedges are not supported')
            if el.tag == 'data':
                kfor, name = key(el)
                if kfor in ('graph', 'all'):
                    if name in given_graph and name in _GRAPH_ATTRS:
                        raise self.error(el.line, "the graph has two values for '%s'"
                                         % name)
                    given_graph.add(name)
                    self.attrs[name] = el.content()
                    self.attr_lines[name] = el.line
            elif el.tag == 'node':
                v = el.get('id')
                if not v:
                    raise self.error(el.line, '<node> has no id attribute')
                if v in self.nodes:
                    raise self.error(el.line, "node '%s' is declared again (first on "
                                     'line %d)' % (v, self.lines[v]))
                attrs = {name: text for name, text, _ in node_defaults}
                found[v] = {name: line for name, _, line in node_defaults}
                given = set()
                for d in el.children:
                    if d.tag == 'data':
                        kfor, name = key(d)
                        if kfor not in ('node', 'all'):
                            continue
                        if name in given and name in _NODE_ATTRS:
                            raise self.error(d.line, "node '%s' has two values for '%s'"
                                             % (v, name))
                        given.add(name)
                        attrs[name] = d.content()
                        found[v][name] = d.line
                self.nodes[v] = attrs
                self.lines[v] = el.line
                self.preds[v] = set()
            elif el.tag == 'edge':
                if el.get('source') is None or el.get('target') is None:
                    raise self.error(el.line, '<edge> without its source or target attribute')
                directed = el.get('directed', 'true').strip(' \t\r\n')
                if directed.lower() not in _BOOLS:
                    raise self.error(el.line, "edge attribute directed='%s' is not a boolean "
                                     '(true, false, 1 or 0)' % directed)
                if directed.lower() in ('false', '0'):
                    raise self.error(el.line, 'undirected edge in a directed graph')
                edges.append(el)
        if not self.nodes:
            raise self.error(graph.line, 'graph has no nodes')
        for el in edges:
            for end in (el.get('source'), el.get('target')):
                if end not in self.nodes:
                    raise self.error(el.line, "edge from '%s' to '%s': no node '%s'"
                                     % (el.get('source'), el.get('target'), end))
            if el.get('source') == el.get('target'):
                raise self.error(el.line, "edge from '%s' to itself (self loops are "
                                 'not allowed)' % el.get('source'))
            self.preds[el.get('target')].add(el.get('source'))
        self._check_acyclic()

        def number(v, name, default, integer):
            if name not in self.nodes[v] and default is None:
                raise self.error(self.lines[v], "node '%s' has no %s" % (v, name))
            try:
                return _read_number("node '%s': %s" % (v, name),
                                    self.nodes[v].get(name, default), integer)
            except UserError as e:
                raise self.error(found[v].get(name, self.lines[v]), e)

        try:
            self.fixed_mem = _read_number('fixed_mem', self.attrs.get('fixed_mem', '0'), True)
        except UserError as e:
            raise self.error(self.attr_lines['fixed_mem'], e)
        self.mem = {v: number(v, 'mem', None, True) for v in self.nodes}
        self.workspace = {v: number(v, 'workspace', '0', True) for v in self.nodes}
        self.cost = {v: number(v, 'cost', None, False) for v in self.nodes}
        for v, attrs in self.nodes.items():
            line = found[v].get
            if attrs.get('kind', 'forward') not in ('forward', 'backward'):
                raise self.error(line('kind'), "node '%s': kind '%s' is not 'forward' or "
                                 "'backward'" % (v, attrs['kind']))
            for name in ('recompute', 'output'):
                if attrs.get(name, 'true').lower() not in _BOOLS:
                    raise self.error(line(name), "node '%s': %s '%s' is not 'true' or "
                                     "'false'" % (v, name, attrs[name]))
        if self.fixed_mem + sum(self.mem.values()) + sum(self.workspace.values()) > MAX_BYTES:
            raise self.error(graph.line, "the graph's memory (fixed_mem plus every node's "
                             'mem and workspace) exceeds 4 EiB')
        most = 1e300 / (len(self.nodes) + 1) / (len(self.nodes) + 1)
        if not sum(self.cost.values()) <= most:
            raise self.error(graph.line, "the node costs sum to %.4g, more than the %.4g "
                             "supported for %d nodes (a plan's cost, with its "
                             'recomputations, must stay finite)'
                             % (sum(self.cost.values()), most, len(self.nodes)))
        # remat-plan(5): the name attribute, else the graph's id (not
        # networkx's placeholder G), else the file name without its suffix
        base = os.path.basename(path)
        for suffix in ('.xml', '.graphml'):
            if base.endswith(suffix) and len(base) > len(suffix):
                base = base[:-len(suffix)]
                break
        base = ''.join('?' if ord(c) < 0x20 or ord(c) == 0x7f or 0xdc80 <= ord(c) <= 0xdcff
                       else c for c in base)     # bytes not UTF-8: as remat-plan
        self.name = self.attrs.get('name') or (
            graph.get('id') if graph.get('id') not in (None, '', 'G') else base)

    def _check_acyclic(self):
        """Raises the error of a cycle, naming one, if there is one."""
        state = dict.fromkeys(self.nodes, 0)    # 0 new, 1 on the path, 2 done
        succs = {v: [] for v in self.nodes}
        for v, ps in self.preds.items():
            for u in ps:
                succs[u].append(v)
        for start in self.nodes:
            if state[start]:
                continue
            path, todo = [start], [iter(succs[start])]
            state[start] = 1
            while todo:
                w = next(todo[-1], None)
                if w is None:
                    state[path.pop()] = 2
                    todo.pop()
                elif state[w] == 1:
                    ring = path[path.index(w):] + [w]
                    raise self.error(self.lines[w], "graph has a cycle through node "
                                     "'%s': %s" % (w, ' -> '.join("'%s'" % x for x in ring)))
                elif state[w] == 0:
                    state[w] = 1
                    path.append(w)
                    todo.append(iter(succs[w]))

    def error(self, line, message):
        """A UserError about line of the file."""
        return _at_line(self.path, line, message)


class Plan:
    """A plan file: root attributes and its compute/free statements in
    document order, wherever they are nested: ('compute', node, reg) or
    ('free', None, reg), and the line of each (lines[i]), read with expat
    for its line numbers."""

    def __init__(self, path):
        data = _read(path, 'plan')
        self.path = path
        self.attrs = None
        self.statements = []
        self.lines = []
        parser = xml.parsers.expat.ParserCreate()
        parser.specified_attributes = True      # no DOCTYPE defaults
        names = _Namespaces()
        # Statements are in the root's namespace (normally none); compute
        # or free elements of another one are extensions, not executed.
        root_ns = []

        def start(name, attrs):
            line = parser.CurrentLineNumber
            # (scopes: one more than the elements open)
            if len(names.scopes) > MAX_DEPTH:
                raise _at_line(path, line, 'elements nested more than %d deep'
                               % MAX_DEPTH)
            tag, ns, attrs = names.enter(name, attrs)
            if self.attrs is None:
                if tag != 'plan':
                    raise _at_line(path, line, 'not a plan: its root element is <%s>'
                                   % name)
                root_ns.append(ns)
                self.attrs = dict(attrs)
                if self.attrs.get('version', '1') != '1':
                    raise _at_line(path, line, 'plan format version %r, not 1 (the one '
                                   'this reader knows)' % self.attrs.get('version'))
                return
            if ns != root_ns[0] or tag not in ('compute', 'free'):
                return
            node, reg = attrs.get('node'), attrs.get('reg')
            if reg == '':
                raise _at_line(path, line, '<%s> with an empty reg attribute' % tag)
            if tag == 'compute' and node is not None and reg is not None:
                self.statements.append(('compute', node, reg))
            elif tag == 'free' and reg is not None:
                self.statements.append(('free', None, reg))
            else:
                raise _at_line(path, line, '<%s> without its node or reg attribute' % tag)
            self.lines.append(line)

        parser.StartElementHandler = start
        parser.EndElementHandler = lambda name: names.leave()
        _refuse_ns_defaults(parser, path, None)
        _run(parser, data, path, 'plan')
        self.computes = sum(s[0] == 'compute' for s in self.statements)

    def error(self, message):
        """A UserError about the plan as a whole (message: text or an
        error), naming its file."""
        return UserError('%s: %s' % (self.path, message))

    def error_at(self, i, message):
        """A UserError about statement i, with the plan's file and that
        statement's line."""
        return _at_line(self.path, self.lines[i], message)


def predicted_peak(file, plan):
    """Replays the plan under the memory model on the numbers of the graph
    file (a GraphFile): during compute v, fixed_mem + live registers'
    mem + mem(v) + workspace(v).  (Invalid statements are left to run_plan
    to report.)"""
    live = {}
    total = peak = file.fixed_mem
    for i, (what, node, reg) in enumerate(plan.statements):
        if what == 'compute':
            if node not in file.nodes:
                raise plan.error_at(i, 'plan computes %r, which is not a node of %s'
                                    % (node, file.path))
            peak = max(peak, total + file.mem[node] + file.workspace[node])
            total += file.mem[node]
            live[reg] = node
        elif reg in live:
            total -= file.mem[live.pop(reg)]
    return peak


def predicted_cost(file, plan):
    """The plan's cost over the baseline (every node once), on the costs of
    the graph file (a GraphFile)."""
    base = sum(file.cost.values())
    cost = sum(file.cost[node] for what, node, _ in plan.statements if what == 'compute')
    return cost / base if base else 1.0
