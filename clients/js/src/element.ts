// A React element tree → Imprint's JSON element tree (docs/templates.md, "The element
// tree"), walked as satori walks it: function components are called (async ones awaited),
// fragments, arrays and iterables flattened, null/undefined/booleans dropped, numbers
// written as text, and host elements ("div", "img", "svg", "path", …) kept with their
// props — `style`, `tw`, `className`, SVG attributes — minus `children`, `key`, `ref`,
// functions and `undefined`. React itself is not needed: the walker reads the `$$typeof`
// markers of any React 18/19 element (or a plain {type, props} object).

/** One node of Imprint's element tree: an element or a text run. */
export type ImprintNode = ImprintElement | string;

/** An element of Imprint's element tree, as `POST /render`'s `template.root` takes it. */
export interface ImprintElement {
  type: string;
  props: { children?: ImprintNode[]; [prop: string]: unknown };
}

/** Anything React can render: elements, strings, numbers, arrays, null… */
export type ElementLike = unknown;

const FRAGMENT = Symbol.for("react.fragment");
const MEMO = Symbol.for("react.memo");
const FORWARD_REF = Symbol.for("react.forward_ref");
const LAZY = Symbol.for("react.lazy");
const PROVIDER = Symbol.for("react.provider"); // React 18
const CONTEXT = Symbol.for("react.context"); // React 19's provider is the context
const CONSUMER = Symbol.for("react.consumer");
const PORTAL = Symbol.for("react.portal");

/** Nesting beyond this is refused rather than overflowing the stack (the server allows 64 levels). */
const MAX_DEPTH = 256;

interface ReactLikeElement {
  type: unknown;
  props?: Record<string, unknown> | null;
}

function isElement(node: unknown): node is ReactLikeElement {
  return typeof node === "object" && node !== null && "type" in node && "props" in node;
}

function isIterable(node: unknown): node is Iterable<unknown> {
  return typeof node === "object" && node !== null && typeof (node as any)[Symbol.iterator] === "function";
}

/** A prop value as JSON: functions and undefined dropped; objects copied the same way. */
function jsonValue(value: unknown): unknown {
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(jsonValue).filter((v) => v !== undefined);
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const j = jsonValue(v);
    if (j !== undefined) out[k] = j;
  }
  return out;
}

const SKIPPED_PROPS = new Set(["children", "key", "ref", "dangerouslySetInnerHTML"]);

async function walk(node: unknown, out: ImprintNode[], depth: number): Promise<void> {
  if (depth > MAX_DEPTH) throw new Error(`Element tree nested deeper than ${MAX_DEPTH} levels`);
  node = await node; // async server components and promises of elements
  if (node === null || node === undefined || typeof node === "boolean") return;
  if (typeof node === "string") {
    if (node !== "") out.push(node);
    return;
  }
  if (typeof node === "number" || typeof node === "bigint") {
    out.push(String(node));
    return;
  }
  if (Array.isArray(node) || (isIterable(node) && !isElement(node))) {
    for (const child of node as Iterable<unknown>) await walk(child, out, depth + 1);
    return;
  }
  if (!isElement(node)) throw new TypeError(`Cannot render ${Object.prototype.toString.call(node)} as an element`);
  const type: any = node.type;
  const props: Record<string, unknown> = node.props ?? {};
  if (typeof type === "string") {
    out.push(await hostElement(type, props, depth));
    return;
  }
  if (type === FRAGMENT || type === PORTAL) return walk(props.children, out, depth + 1);
  if (typeof type === "function") {
    // A class component has a render() on its prototype; anything else is a function component.
    const rendered = type.prototype && type.prototype.isReactComponent ? new type(props).render() : type(props);
    return walk(rendered, out, depth + 1);
  }
  if (typeof type === "object" && type !== null) {
    switch (type.$$typeof) {
      case MEMO:
        return walk({ type: type.type, props }, out, depth + 1);
      case FORWARD_REF:
        return walk(type.render(props, null), out, depth + 1);
      case LAZY:
        return walk({ type: await type._init(type._payload), props }, out, depth + 1);
      case PROVIDER:
      case CONTEXT:
        return walk(props.children, out, depth + 1);
      case CONSUMER: {
        const context = type._context ?? type;
        const render = props.children as (value: unknown) => unknown;
        return walk(render(context._currentValue), out, depth + 1);
      }
    }
  }
  // Symbols such as React.StrictMode or Suspense: render their children.
  if (typeof type === "symbol") return walk(props.children, out, depth + 1);
  throw new TypeError(`Unsupported element type ${String(type)}`);
}

async function hostElement(type: string, props: Record<string, unknown>, depth: number): Promise<ImprintElement> {
  const outProps: ImprintElement["props"] = {};
  for (const [name, value] of Object.entries(props)) {
    if (SKIPPED_PROPS.has(name)) continue;
    const j = jsonValue(value);
    if (j !== undefined) outProps[name] = j;
  }
  const children: ImprintNode[] = [];
  await walk(props.children, children, depth + 1);
  if (children.length > 0) outProps.children = children;
  return { type, props: outProps };
}

/**
 * Walks `element` into one root of Imprint's element tree. Several top-level nodes (a
 * fragment at the root) are wrapped in a `div` with `display: flex`, as satori lays out
 * a root that is not an element. Throws TypeError for something that is not renderable.
 */
export async function toImprintTree(element: ElementLike): Promise<ImprintElement> {
  const nodes: ImprintNode[] = [];
  await walk(element, nodes, 0);
  if (nodes.length === 1 && typeof nodes[0] !== "string") return nodes[0];
  return { type: "div", props: { style: { display: "flex" }, children: nodes } };
}
