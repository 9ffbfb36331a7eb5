// Reading a V8 heap snapshot: what each module (package, or folder of the vault) retains.
//
// Every object is charged to one module. Code is charged to its script (a function, its
// bytecode and its shared info to the file that defines it; a module's namespace and top-level
// state to that module). Any other object is charged to the module of its nearest owner in the
// dominator tree: the object that, if freed, would free it too. What only the runtime holds
// (node's own loader, V8's builtins) is charged to "node (internals)" or "(V8 / runtime)".

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapByModule {
  /** Total of every object's own size, in bytes. */
  total: number;
  /** Bytes charged to each module, largest first. */
  modules: { module: string; bytes: number }[];
  /** The largest single objects by retained size, with the module they are charged to. */
  largest: { what: string; module: string; retained: number }[];
}

/** The module a script's URL belongs to: a package, a top folder of the vault, or node. */
export function moduleOf(url: string, root: string): string {
  // Libraries bundled into Node (undici for fetch, amaro for TypeScript) by name.
  const bundled = /^node:internal\/deps\/([^/]+)/.exec(url);
  if (bundled) return `node (bundled ${bundled[1]})`;
  if (url.startsWith('node:')) return 'node (internals)';
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1]!;
  if (file.startsWith(root + '/')) {
    const parts = file.slice(root.length + 1).split('/');
    // src/<folder>/… by folder; files directly in a top folder by that folder.
    return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : `${parts[0]}/`;
  }
  return file === '' ? '(V8 / runtime)' : 'node (internals)';
}

/** Charges the heap of `json` (a .heapsnapshot file's text) to modules; see the file's top. */
export function heapByModule(json: string, root: string): HeapByModule {
  const snap = JSON.parse(json) as Snapshot;
  const { nodes, edges, strings } = snap;
  const meta = snap.snapshot.meta;
  const NF = meta.node_fields.length;
  const EF = meta.edge_fields.length;
  const [T, NAME, SIZE, COUNT] = ['type', 'name', 'self_size', 'edge_count'].map((f) =>
    meta.node_fields.indexOf(f),
  ) as [number, number, number, number];
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const WEAK = edgeTypes.indexOf('weak');
  const SHORTCUT = edgeTypes.indexOf('shortcut');
  const n = nodes.length / NF;
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e;
    e += nodes[i * NF + COUNT]! * EF;
  }
  firstEdge[n] = edges.length;
  const typeOf = (i: number) => nodeTypes[nodes[i * NF + T]!]!;
  const nameOf = (i: number) => strings[nodes[i * NF + NAME]!]!;
  const sizeOf = (i: number) => nodes[i * NF + SIZE]!;
  const strong = (e: number) => edges[e] !== WEAK && edges[e] !== SHORTCUT;
  const edgeNamed = (i: number, name: string): number | undefined => {
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += EF) {
      if (strings[edges[e + 1]!] === name) return edges[e + 2]! / NF;
    }
    return undefined;
  };

  // Depth-first order from the root (node 0) and predecessors, for the dominator tree.
  const order = new Int32Array(n).fill(-1);
  const byOrder: number[] = [];
  const stack = [0];
  order[0] = 0;
  byOrder.push(0);
  const preds: number[][] = Array.from({ length: n }, () => []);
  while (stack.length > 0) {
    const i = stack.pop()!;
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += EF) {
      if (!strong(e)) continue;
      const to = edges[e + 2]! / NF;
      preds[to]!.push(i);
      if (order[to] === -1) {
        order[to] = byOrder.length;
        byOrder.push(to);
        stack.push(to);
      }
    }
  }
  // Cooper, Harvey and Kennedy's iterative dominators, in the order found above.
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a]! > order[b]!) a = idom[a]!;
      while (order[b]! > order[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let k = 1; k < byOrder.length; k++) {
      const i = byOrder[k]!;
      let d = -1;
      for (const p of preds[i]!) {
        if (idom[p] === -1) continue;
        d = d === -1 ? p : intersect(p, d);
      }
      if (d !== -1 && idom[i] !== d) {
        idom[i] = d;
        changed = true;
      }
    }
  }

  // The script a node is code of, if any: scripts, functions, shared infos, modules.
  const scriptUrl = (i: number, depth = 0): string | undefined => {
    if (depth > 3) return undefined;
    const type = typeOf(i);
    const name = nameOf(i);
    if (type === 'code' && edgeNamed(i, 'source') !== undefined) return name;
    const via =
      type === 'closure'
        ? edgeNamed(i, 'shared')
        : name === 'Generator'
          ? edgeNamed(i, 'function')
          : (edgeNamed(i, 'script') ?? moduleGenerator(i));
    return via === undefined ? undefined : scriptUrl(via, depth + 1);
  };
  const moduleGenerator = (i: number) => {
    if (nameOf(i) !== 'system / SourceTextModule') return undefined;
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += EF) {
      const to = edges[e + 2]! / NF;
      if (nameOf(to) === 'Generator') return to;
    }
    return undefined;
  };

  // A script's source text is kept by the runtime's tables of scripts as much as by the
  // script: it belongs to the script's module.
  const sourceOf = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    const source = typeOf(i) === 'code' ? edgeNamed(i, 'source') : undefined;
    if (source !== undefined) sourceOf.set(source, nameOf(i));
  }

  // Owners down the dominator tree: a node with a script of its own, else its dominator's.
  const owner: string[] = new Array<string>(n);
  owner[0] = '(V8 / runtime)';
  const retained = new Float64Array(n);
  for (let k = 0; k < byOrder.length; k++) {
    const i = byOrder[k]!;
    if (i === 0) continue;
    const url = scriptUrl(i) ?? sourceOf.get(i);
    owner[i] = url !== undefined ? moduleOf(url, root) : owner[idom[i]!]!;
  }
  // byOrder is a depth-first order of a graph, not of the tree: a dominator is always found
  // before what it dominates, so the pass above sees owners in time, and sizes roll up in
  // reverse.
  for (let k = byOrder.length - 1; k > 0; k--) {
    const i = byOrder[k]!;
    retained[i]! += sizeOf(i);
    retained[idom[i]!]! += retained[i]!;
  }
  const totals = new Map<string, number>();
  let total = 0;
  for (const i of byOrder) {
    total += sizeOf(i);
    totals.set(owner[i]!, (totals.get(owner[i]!) ?? 0) + sizeOf(i));
  }
  const modules = [...totals].map(([module, bytes]) => ({ module, bytes }));
  modules.sort((a, b) => b.bytes - a.bytes);
  // The largest objects that are not just a structure of the runtime (roots, module maps).
  const largest = byOrder
    .filter((i) => i !== 0 && typeOf(i) !== 'synthetic' && idom[i] !== 0)
    .filter((i) => owner[idom[i]!] !== owner[i] || typeOf(i) === 'string')
    .sort((a, b) => retained[b]! - retained[a]!)
    .slice(0, 15)
    .map((i) => ({
      what: `${typeOf(i)} ${JSON.stringify(nameOf(i).slice(0, 50))}`,
      module: owner[i]!,
      retained: retained[i]!,
    }));
  return { total, modules, largest };
}
