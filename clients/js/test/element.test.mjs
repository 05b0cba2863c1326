// The React-tree walker (src/element.ts) without a server: what satori keeps, Imprint's
// JSON tree keeps.
import { test } from "node:test";
import assert from "node:assert/strict";
import React from "react";
import { toImprintTree, imageTemplate } from "../dist/index.js";

const h = React.createElement;

test("function components are called, fragments and arrays flattened, null and booleans dropped", async () => {
  const Title = ({ text }) => h("span", { tw: "text-6xl font-bold" }, text);
  const List = ({ items }) => h(React.Fragment, null, items.map((i) => h("li", { key: i }, i)));
  const tree = await toImprintTree(
    h("div", { style: { display: "flex", fontSize: 32 }, className: "card" }, [
      h(Title, { text: "Hello" }),
      null,
      false,
      h(List, { items: ["a", "b"] }),
      42,
      "",
    ]),
  );
  assert.deepEqual(tree, {
    type: "div",
    props: {
      style: { display: "flex", fontSize: 32 },
      className: "card",
      children: [
        { type: "span", props: { tw: "text-6xl font-bold", children: ["Hello"] } },
        { type: "li", props: { children: ["a"] } },
        { type: "li", props: { children: ["b"] } },
        "42",
      ],
    },
  });
});

test("SVG props are kept; functions, key and ref dropped", async () => {
  const icon = h(
    "svg",
    { width: 24, height: 24, viewBox: "0 0 24 24", fill: "none", onClick: () => {}, ref: null },
    h("path", { d: "M4 12h16", stroke: "#fff", strokeWidth: 2, strokeLinecap: "round" }),
  );
  assert.deepEqual(await toImprintTree(icon), {
    type: "svg",
    props: {
      width: 24,
      height: 24,
      viewBox: "0 0 24 24",
      fill: "none",
      children: [{ type: "path", props: { d: "M4 12h16", stroke: "#fff", strokeWidth: 2, strokeLinecap: "round" } }],
    },
  });
});

test("memo, forwardRef, context, class and async components render their output", async () => {
  const Ctx = React.createContext("ctx-default");
  const Memo = React.memo(({ t }) => h("b", null, t));
  const Fwd = React.forwardRef((props, ref) => h("i", null, props.t));
  class Klass extends React.Component {
    render() {
      return h("u", null, this.props.t);
    }
  }
  const Async = async ({ t }) => h("em", null, await Promise.resolve(t));
  const tree = await toImprintTree(
    h(
      "div",
      null,
      h(Memo, { t: "m" }),
      h(Fwd, { t: "f" }),
      h(Klass, { t: "k" }),
      h(Async, { t: "a" }),
      h(Ctx.Provider, { value: "v" }, h("s", null, "p")),
      h(React.StrictMode, null, h("small", null, "s")),
    ),
  );
  assert.deepEqual(
    tree.props.children.map((c) => [c.type, c.props.children[0]]),
    [["b", "m"], ["i", "f"], ["u", "k"], ["em", "a"], ["s", "p"], ["small", "s"]],
  );
});

test("a fragment at the root is wrapped in a flex div", async () => {
  const tree = await toImprintTree(h(React.Fragment, null, h("a", null), "text"));
  assert.deepEqual(tree, { type: "div", props: { style: { display: "flex" }, children: [{ type: "a", props: {} }, "text"] } });
});

test("ImageResponse options become the template document: size, emoji, engine", async () => {
  const { template, fields } = await imageTemplate(h("div", null, "x"), {
    width: 600,
    height: 315,
    emoji: "openmoji",
    format: "webp",
  });
  assert.equal(template.width, 600);
  assert.equal(template.height, 315);
  assert.equal(template.emojiType, "openmoji");
  assert.equal(template.rendererType, "satori");
  assert.deepEqual(fields, { format: "webp" });
  const defaults = await imageTemplate(h("div", null, "x"), { emoji: "fluent" });
  assert.equal(defaults.template.width, 1200);
  assert.equal(defaults.template.height, 630);
  assert.equal(defaults.template.emojiType, "noto");
});

test("things that are not elements are refused", async () => {
  await assert.rejects(toImprintTree({ notAnElement: true }), TypeError);
});
