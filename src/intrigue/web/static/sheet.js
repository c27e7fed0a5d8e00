// The rules drawer: what a game teaches at the table, from its table data ("sheet"):
// sections of paragraphs, items (a card or role with its text and art), tables (rows of
// cells) and the turn's steps (made from the DSL for games without a sheet of their own).

import {h, fill} from "./dom.js";
import {icon} from "./art.js";
import {gameText, gameWord, listOf, t} from "./i18n.js";

const TITLES = {goal: "sheet.goal", roles: "sheet.roles", turn: "sheet.turn"};

function section(table, s) {
  const title = s.title ? gameText(table, s.title) : TITLES[s.id] ? t(TITLES[s.id]) : "";
  return h("section", {class: "sheet-section", dataset: {section: s.id || ""}},
    title ? h("h3", {}, title) : null,
    (s.paragraphs || []).map((p) => h("p", {}, gameText(table, p))),
    (s.items || []).length ? h("dl", {class: "sheet-items"}, s.items.map((item) =>
      h("div", {class: "sheet-item"},
        h("dt", {}, (table.art || {})[item.name] ? icon(table.art[item.name]) : null, gameWord(table, item.name)),
        h("dd", {}, item.text ? gameText(table, item.text) : "")))) : null,
    s.rows ? h("div", {class: "scroll-x"}, h("table", {class: "sheet-table"},
      s.head ? h("thead", {}, h("tr", {}, s.head.map((cell) => h("th", {scope: "col"}, gameText(table, cell))))) : null,
      h("tbody", {}, s.rows.map((row) => h("tr", {}, row.map((cell, i) =>
        i === 0 ? h("th", {scope: "row"}, gameText(table, cell)) : h("td", {}, gameText(table, cell)))))))) : null,
    (s.steps || []).length ? h("ol", {class: "sheet-steps"}, s.steps.map((step) =>
      h("li", {},
        h("strong", {}, gameText(table, step.name)),
        step.text ? h("p", {}, gameText(table, step.text)) : null,
        step.who ? h("p", {class: "muted small"}, t("sheet.who", {who: gameText(table, step.who)})) : null,
        step.options && step.options.length
          ? h("p", {class: "small"}, t("sheet.options", {options: listOf(step.options.map((o) => gameWord(table, o)), "disjunction")}))
          : null,
        step.players ? h("p", {class: "small"}, t("sheet.chooseplayer")) : null,
        step.default ? h("p", {class: "small muted"}, t("sheet.default", {option: gameWord(table, step.default)})) : null))) : null);
}

/** Open the drawer for the game's table data (the dialog is created once per page). */
export function openSheet(table, title) {
  let dialog = document.getElementById("rules");
  if (!dialog) {
    dialog = h("dialog", {id: "rules", class: "sheet", "aria-labelledby": "rules-title"});
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    document.body.appendChild(dialog);
  }
  const sheet = (table && table.sheet) || {sections: []};
  fill(dialog,
    h("div", {class: "sheet-head"},
      h("h2", {id: "rules-title"}, t("sheet.title", {game: title})),
      h("button", {type: "button", class: "quiet", id: "rules-close", onclick: () => dialog.close()}, t("sheet.close"))),
    sheet.summary ? h("p", {class: "sheet-summary"}, gameText(table, sheet.summary)) : null,
    (sheet.sections || []).map((s) => section(table, s)),
    (sheet.sections || []).length ? null : h("p", {class: "muted"}, t("sheet.none")));
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("#rules-close").focus();
}
