/** Small helpers to build DOM nodes without a framework. */

/** Attributes and children of {@link h}. */
type Child = Node | string | null | undefined | false;

/**
 * Creates an element: `h("button", { class: "x", "data-key": "sq:e2" }, "e2")`. Attributes whose
 * value is `false`, `null` or `undefined` are left out; `true` sets an empty attribute.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | null | undefined> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** Replaces every child of `parent` with `children`. */
export function replace(parent: Element, ...children: Node[]): void {
  parent.replaceChildren(...children);
}
