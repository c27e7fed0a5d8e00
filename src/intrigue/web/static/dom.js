// Tiny DOM helpers. Everything user-supplied goes in as text nodes: no innerHTML.

/** h("button", {class: "x", onclick: fn, "aria-label": "..."}, "text", child, ...) */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) node.dataset[k] = v;
    } else if (key === "style" && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) node.style.setProperty(k, v);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace the children of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** A short message in the page's live region (errors, confirmations). */
export function toast(text, tone = "error") {
  let region = document.getElementById("toasts");
  if (!region) {
    region = h("div", {id: "toasts", class: "toasts", role: "status", "aria-live": "polite"});
    document.body.appendChild(region);
  }
  const item = h("div", {class: `toast toast-${tone}`}, text);
  region.appendChild(item);
  setTimeout(() => item.remove(), tone === "error" ? 6000 : 3000);
}
