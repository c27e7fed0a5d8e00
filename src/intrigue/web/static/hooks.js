// Extension points of the table, for features that sit on top of it without changing it:
// a Hint button, a guided first game (tutorial overlay), a coach. They are real hooks the
// table itself uses (the room page's alerts listen to "decision"), not placeholders.
//
//   import {tableHooks} from "/static/hooks.js";
//   tableHooks.on("decision", ({view, panel, tools, send}) => {
//     tools.appendChild(myHintButton);      // `tools`: a slot in the decision panel
//   });
//   tableHooks.on("render", ({root, view, panel}) => { ... });   // after every render
//   tableHooks.overlay();                     // an element above the table for an overlay
//
// Events: "view" ({view, timer, seat}) when a view arrives; "render" after the table is
// drawn; "decision" ({view, panel, tools, send}) when a new decision opens for this seat
// (`send(option)` chooses, exactly like a click); "over" ({view}) when a match ends.

class Hooks {
  constructor() {
    this.listeners = new Map();
  }

  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return () => {
      this.listeners.set(event, this.listeners.get(event).filter((fn) => fn !== listener));
    };
  }

  emit(event, detail) {
    for (const listener of this.listeners.get(event) || []) {
      try {
        listener(detail);
      } catch (err) {
        console.error(`table hook ${event}:`, err);
      }
    }
  }

  /** The overlay layer above the table (created on first use; empty and click-through until filled). */
  overlay() {
    let layer = document.getElementById("table-overlay");
    if (!layer) {
      layer = document.createElement("div");
      layer.id = "table-overlay";
      layer.className = "table-overlay";
      document.body.appendChild(layer);
    }
    return layer;
  }
}

export const tableHooks = new Hooks();
