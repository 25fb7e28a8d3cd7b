// Small DOM helpers every module shares.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** The SVG namespace, for elements made with createElementNS. */
export const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with `attrs`, appended to `parent` when one is given. */
export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
