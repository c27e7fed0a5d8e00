// Extension points of the table, for features that sit on top of it without changing it:
// the coach's Hint button (coach.js) and the guided first game (tutorial.js) use them, and
// so do the room page's own turn alerts.
//
//   import {tableHooks} from "/static/hooks.js";
//   tableHooks.on("decision", ({view, panel, tools, send}) => {
//     tools.appendChild(myHintButton);      // `tools`: a slot in the decision panel
//   });
//   tableHooks.on("render", ({root, view, panel}) => { ... });   // after every render
//   tableHooks.on("message", ({message}) => { ... });            // every server message
//   tableHooks.send({type: "hint", version});  // a message on the room's socket, with the seat's token
//   tableHooks.overlay();                     // an element above the table for an overlay
//
// Events: "view" ({view, timer, seat, match}) when a view arrives; "render" after the table
// is drawn; "decision" ({view, panel, tools, send}) when a new decision opens for this seat
// (`send(option)` chooses, exactly like a click); "over" ({view}) when a match ends;
// "message" ({message}) for every message the server sends, before the page handles it (an
// `error` with an `about` field answers a feature's own request: the page leaves it to them).

class Hooks {
  constructor() {
    this.listeners = new Map();
    this.sender = null;
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

  /** The page says how to send on its socket (it adds the seat's token). */
  provide({send}) {
    this.sender = send;
  }

  /** Send `message` on the room's socket with the seat's token; false if not connected. */
  send(message) {
    return this.sender ? this.sender(message) : false;
  }

  /** The overlay layer above the table (created on first use; empty and hidden until filled). */
  overlay() {
    let layer = document.getElementById("table-overlay");
    if (!layer) {
      layer = document.createElement("div");
      layer.id = "table-overlay";
      layer.className = "table-overlay";
      const table = document.getElementById("table");
      if (table && table.parentNode) table.parentNode.insertBefore(layer, table);
      else document.body.appendChild(layer);
    }
    return layer;
  }
}

export const tableHooks = new Hooks();
