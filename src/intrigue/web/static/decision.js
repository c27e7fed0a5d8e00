// The decision panel: the prompt, the countdown and what the timer will choose, and the
// seat's options drawn as what they are, generically (docs/protocol.md, "options"):
//
// - choose-N players (`decision.pick`): N-of-M player chips and Confirm, which sends the
//   chosen names in seat order joined by ", ";
// - choose cards (`choose` on the options component, each option's `cards`): tap the cards
//   to keep, then Confirm;
// - cards to play (an option's `card`): tap a card, then its target (distance shown) or Play;
// - actions (`label`, `claim`, `cost`, `gain`, `note`, `target`): "Tax · Duke · +3", a targeted
//   action opens a row of targets; actions not offered yet (`unavailable`) are shown disabled
//   with the reason;
// - Pass, whenever offered, always in the same place: the end of the bar.
//
// Every control that sends carries data-option (the exact option string).

import {h} from "./dom.js";
import {card, explain, playerColour} from "./cards.js";
import {gameText, gameWord, optionWord, t} from "./i18n.js";

const PASS = "Pass";

function signed(n) {
  return n > 0 ? `+${n}` : `−${Math.abs(n)}`;
}

/** "Tax · Duke · +3", "Assassinate · Assassin · −3": what an action claims, costs and gives. */
export function actionText(table, about, option, names) {
  const parts = [];
  if (about.label) parts.push(gameWord(table, about.label, names));
  else if (about.card) parts.push(gameWord(table, about.card, names));
  else parts.push(optionWord(table, option, names));
  if (about.claim) parts.push(gameWord(table, about.claim, names));
  if (about.cost) parts.push(t(about.cost === 1 ? "option.coin" : "option.coins", {n: signed(-about.cost)}));
  if (about.gain) parts.push(t(about.gain === 1 ? "option.coin" : "option.coins", {n: signed(about.gain)}));
  if (about.note && !about.gain) parts.push(gameWord(table, about.note, names));
  return parts.join(" · ");
}

/** An option in words a player reads (for buttons, the timer's default and replays). */
export function optionText(table, about, option, names) {
  if (!about || !Object.keys(about).length) return optionWord(table, option, names);
  const base = about.cards && about.cards.length && !about.card
    ? [about.label ? gameWord(table, about.label, names) : null, about.cards.map((c) => gameWord(table, c)).join(" + ")]
      .filter(Boolean).join(" ")
    : actionText(table, about, option, names)
      // "Lose · Assassin", not "Lose": the card a labelled option is about is part of what it does
      + (about.label && about.card && !about.claim ? ` · ${gameWord(table, about.card)}` : "");
  const aim = about.target ? ` → ${about.target}` : "";
  const detail = about.detail ? ` (${about.detail === "hand" ? t("option.fromhand") : gameWord(table, about.detail)})` : "";
  return base + aim + detail;
}

function optionButton(option, text, onChoose, extra = {}) {
  return h("button", {type: "button", class: "option", dataset: {option}, disabled: !onChoose,
    onclick: onChoose ? (event) => onChoose(option, event.currentTarget) : null, ...extra}, text);
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((item, i) => item === y[i]);
}

/**
 * Build the panel for this seat's decision, or reuse `previous` when the same decision is
 * still open (a view arriving between a press and its release must not swallow the click,
 * nor reset a card already selected).
 */
export function decisionPanel(view, ctx, previous) {
  const decision = view.decision;
  const options = (decision && decision.options) || [];
  if (!options.length) return null;
  const {table, names, onChoose} = ctx;
  const promptComponent = ctx.prompt || {};
  const about = promptComponent.about || {};
  const info = (option) => about[option] || {};
  const timerDefault = ctx.timer && ctx.timer.default;
  const key = JSON.stringify([decision.phase, decision.kind, options, promptComponent.prompt, promptComponent.msg,
    Boolean(onChoose), timerDefault, view.match]);
  if (previous && previous.dataset.key === key && !previous.querySelector(".chosen")) {
    const head = previous.querySelector(".decision-head");
    if (ctx.countdown && ctx.countdown.parentNode !== head) head.appendChild(ctx.countdown);
    return previous;
  }

  const prompt = promptComponent.prompt
    ? gameText(table, promptComponent.prompt, promptComponent.msg && promptComponent.msg.prompt, names)
    : t("decision.yourchoice");
  const passOption = options.find((o) => o === PASS || info(o).label === PASS) || null;
  const rest = options.filter((o) => o !== passOption);
  const body = h("div", {class: "options", role: "group", "aria-label": t("decision.options")});
  // data-options lists every option offered (some sit behind a card or a target row), for tools and tests.
  const panel = h("section", {class: "decision mine", dataset: {kind: "options", key, options: JSON.stringify(options)},
    "aria-labelledby": "decision-prompt"},
    h("div", {class: "decision-head"}, h("h2", {id: "decision-prompt"}, prompt), ctx.countdown || null),
    timerDefault ? h("p", {class: "timer-default", dataset: {default: timerDefault}},
      t("decision.default", {option: optionText(table, info(timerDefault), timerDefault, names)})) : null,
    h("div", {class: "decision-tools", dataset: {hook: "decision-tools"}}),
    h("div", {class: "decision-bar"}, body,
      h("div", {class: "pass-slot"}, passOption
        ? optionButton(passOption, optionWord(table, passOption, names), onChoose, {class: "option pass"}) : null)));

  if (decision.pick && decision.pick.count) {
    pickPlayers(body, decision.pick, rest, ctx);
  } else if (promptComponent.choose && rest.some((o) => info(o).cards)) {
    chooseCards(body, promptComponent.choose, rest, info, ctx);
  } else if (rest.some((o) => info(o).card || (info(o).cards || []).length === 1)) {
    playCards(body, rest, info, ctx);
  } else {
    actions(body, rest, info, ctx);
  }
  const unavailable = promptComponent.unavailable || [];
  if (unavailable.length) {
    body.appendChild(h("div", {class: "unavailable", role: "group", "aria-label": t("decision.notyet")},
      unavailable.map((item, index) => {
        const reason = gameText(table, item.reason, item.msg && item.msg.reason, names);
        const id = `why-${index}`;
        return h("div", {class: "unavailable-item"},
          h("button", {type: "button", class: "option", disabled: true, "aria-describedby": id, dataset: {unavailable: item.label}},
            actionText(table, item, item.label, names)),
          h("span", {class: "why", id}, reason));
      })));
  }
  return panel;
}

/** Choose exactly N players (contract: option = names in seat order joined by ", "). */
function pickPlayers(body, pick, options, ctx) {
  const chosen = new Set();
  const order = pick.from || [];
  const confirm = h("button", {type: "button", class: "option confirm primary", disabled: true}, t("decision.confirm"));
  const status = h("p", {class: "pick-status", "aria-live": "polite"});
  const refresh = () => {
    const names = order.filter((name) => chosen.has(name));
    const option = names.join(", ");
    const ok = names.length === pick.count && options.includes(option);
    confirm.disabled = !ok || !ctx.onChoose;
    if (ok) confirm.dataset.option = option;
    else delete confirm.dataset.option;
    status.textContent = t("decision.picked", {n: names.length, count: pick.count});
  };
  confirm.addEventListener("click", (event) => {
    if (confirm.dataset.option && ctx.onChoose) ctx.onChoose(confirm.dataset.option, event.currentTarget);
  });
  body.appendChild(h("div", {class: "chips", role: "group", "aria-label": t("decision.pickplayers", {count: pick.count})},
    order.map((name) => h("button", {type: "button", class: "chip", "aria-pressed": "false", dataset: {pick: name},
      style: {"--pc": playerColour(ctx.seatOf(name))},
      onclick: (event) => {
        if (chosen.has(name)) chosen.delete(name);
        else if (chosen.size < pick.count) chosen.add(name);
        event.currentTarget.setAttribute("aria-pressed", String(chosen.has(name)));
        refresh();
      }}, name))));
  body.appendChild(h("div", {class: "option-row"}, status, confirm));
  refresh();
}

/** Choose cards to keep from a pool: the option whose cards are the ones tapped. */
function chooseCards(body, choose, options, info, ctx) {
  const pool = choose.from || [];
  const picked = new Set();
  const keeps = options.filter((o) => info(o).cards);
  const others = options.filter((o) => !info(o).cards);
  const confirm = h("button", {type: "button", class: "option confirm primary", disabled: true}, t("decision.keep"));
  const status = h("p", {class: "pick-status", "aria-live": "polite"});
  const choices = {};
  for (const option of keeps) {
    const left = [...pool.keys()];
    choices[option] = info(option).cards.map((c) => {
      const at = left.findIndex((i) => pool[i] === c);
      return at < 0 ? -1 : left.splice(at, 1)[0];
    });
  }
  const refresh = () => {
    const cards = [...picked].map((i) => pool[i]);
    const match = keeps.find((o) => sameCards(info(o).cards, cards));
    confirm.disabled = !match || !ctx.onChoose;
    if (match) confirm.dataset.option = match;
    else delete confirm.dataset.option;
    status.textContent = t("decision.kept", {n: picked.size, count: choose.count});
  };
  confirm.addEventListener("click", (event) => {
    if (confirm.dataset.option && ctx.onChoose) ctx.onChoose(confirm.dataset.option, event.currentTarget);
  });
  body.appendChild(h("div", {class: "pool cards big", role: "group", "aria-label": t("decision.tapkeep", {count: choose.count}),
    dataset: {choices: JSON.stringify(choices)}},
    pool.map((label, index) => h("button", {type: "button", class: "pick-card", "aria-pressed": "false", dataset: {pickIndex: index},
      onclick: (event) => {
        if (picked.has(index)) picked.delete(index);
        else if (picked.size < choose.count) picked.add(index);
        event.currentTarget.setAttribute("aria-pressed", String(picked.has(index)));
        refresh();
      }}, card(ctx.table, label, {tag: "span"})))));
  body.appendChild(h("div", {class: "option-row"}, status, confirm));
  if (others.length) actions(body, others, info, ctx);
  refresh();
}

/** Tap a card, then what to do with it: a target (with its distance) or Play. */
function playCards(body, options, info, ctx) {
  const {table, names} = ctx;
  const cardOf = (o) => info(o).card || ((info(o).cards || []).length === 1 ? info(o).cards[0] : null);
  const withCard = options.filter(cardOf);
  const others = options.filter((o) => !cardOf(o));
  const mine = ctx.myHand || [];
  const wanted = [...new Set(withCard.map(cardOf))];
  const fromHand = wanted.every((c) => mine.includes(c));
  const pool = fromHand ? mine : wanted;
  const detail = h("div", {class: "card-actions", "aria-live": "polite"});
  let selected = null;
  const buttons = [];
  // The hint fits the decision: every card does one same thing (Lose, Discard) → "Tap a card, then “Lose”".
  const labels = new Set(withCard.map((o) => info(o).label || ""));
  const only = labels.size === 1 && !withCard.some((o) => info(o).target) ? [...labels][0] : "";
  const hint = only ? t("decision.tapthen", {action: gameWord(table, only, names)}) : t("decision.tapcard");
  const show = () => {
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.card === selected));
    if (selected === null) {
      detail.replaceChildren(h("p", {class: "muted small", dataset: {hint: only ? "then" : "card"}}, hint));
      return;
    }
    const uses = withCard.filter((o) => cardOf(o) === selected);
    const about = explain(table, selected);
    if (!uses.length) {  // a card you hold but may not play now: what it does says when it is played
      detail.replaceChildren(
        h("p", {class: "card-help"}, h("strong", {}, gameWord(table, selected)), about ? ` — ${about}` : ""),
        h("p", {class: "muted small", dataset: {hint: "unplayable"}}, t("decision.cannotplay")));
      return;
    }
    const range = ctx.prompt && ctx.prompt.range !== undefined ? t("decision.range", {n: ctx.prompt.range}) : null;
    const targeted = uses.filter((o) => info(o).target);
    detail.replaceChildren(
      h("p", {class: "card-help"}, h("strong", {}, gameWord(table, selected)), about ? ` — ${about}` : "",
        targeted.length && range ? h("span", {class: "muted"}, ` (${range})`) : null),
      h("div", {class: "option-row"}, uses.map((o) => {
        const it = info(o);
        if (it.target) {
          const where = it.detail ? ` · ${it.detail === "hand" ? t("option.fromhand") : gameWord(table, it.detail)}` : "";
          const far = it.distance !== undefined ? ` · ${t("decision.distance", {n: it.distance})}` : "";
          return optionButton(o, `${it.target}${where}${far}`, ctx.onChoose,
            {class: "option chip-target", style: {"--pc": playerColour(ctx.seatOf(it.target))},
              "aria-label": t("decision.playat", {card: gameWord(table, selected), target: it.target}) + where + far});
        }
        const text = it.label ? `${gameWord(table, it.label, names)} · ${gameWord(table, selected)}`
          : t("decision.play", {card: gameWord(table, selected)});
        return optionButton(o, text, ctx.onChoose, {class: "option primary"});
      })));
  };
  body.appendChild(h("div", {class: "pool cards big", role: "group", "aria-label": t("decision.yourcards")},
    pool.map((label) => {
      const playable = wanted.includes(label);
      // A card not playable now stays tappable (greyed): a tap says what it does and that it cannot be played now.
      const button = h("button", {type: "button", class: "pick-card" + (playable ? "" : " unplayable"), "aria-pressed": "false",
        "aria-disabled": playable ? null : "true", dataset: {card: label},
        onclick: (event) => {
          selected = selected === label ? null : label;
          show();
          // From the keyboard, go on to what the card can do (it is after the other cards).
          if (selected !== null && event.detail === 0) detail.querySelector("button:not(:disabled)")?.focus();
        }}, card(table, label, {tag: "span"}));
      buttons.push(button);
      return button;
    })));
  body.appendChild(detail);
  if (others.length) actions(body, others, info, ctx);
  show();
}

/** Action buttons: targeted ones open a row of targets; player names are chips in their colour. */
function actions(body, options, info, ctx) {
  const {table, names} = ctx;
  const groups = new Map();
  for (const option of options) {
    const it = info(option);
    const group = it.target ? JSON.stringify([it.label || option, it.claim || "", it.card || ""]) : `single:${option}`;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(option);
  }
  const targets = h("div", {class: "targets", "aria-live": "polite"});
  const row = h("div", {class: "option-row"});
  const players = [];
  for (const [group, members] of groups) {
    const first = members[0];
    const it = info(first);
    if (!group.startsWith("single:")) {
      const button = h("button", {type: "button", class: "option group", "aria-expanded": "false",
        dataset: {group: it.label || first, options: JSON.stringify(members)}, disabled: !ctx.onChoose,
        onclick: (event) => {
          for (const other of row.querySelectorAll(".group")) if (other !== event.currentTarget) other.setAttribute("aria-expanded", "false");
          const open = event.currentTarget.getAttribute("aria-expanded") !== "true";
          event.currentTarget.setAttribute("aria-expanded", String(open));
          targets.replaceChildren(open ? h("div", {class: "option-row", role: "group", "aria-label": t("decision.target")},
            h("span", {class: "muted small"}, t("decision.target")),
            members.map((o) => optionButton(o, info(o).target, ctx.onChoose,
              {class: "option chip-target", style: {"--pc": playerColour(ctx.seatOf(info(o).target))}}))) : "");
          // From the keyboard (a click with no pointer), go on to the targets rather than past
          // the other actions to reach them.
          if (open && event.detail === 0) targets.querySelector("button:not(:disabled)")?.focus();
          // On a phone the panel scrolls inside: the targets just opened may be below its edge.
          else if (open) targets.scrollIntoView({block: "nearest"});
        }}, actionText(table, it, first, names));
      row.appendChild(button);
    } else if (names.has(first)) {
      players.push(optionButton(first, first, ctx.onChoose, {class: "option chip-target", style: {"--pc": playerColour(ctx.seatOf(first))}}));
    } else {
      const about = it.card ? explain(table, it.card) : it.claim ? explain(table, it.claim) : null;
      row.appendChild(optionButton(first, optionText(table, it, first, names), ctx.onChoose, about ? {title: about} : {}));
    }
  }
  if (players.length) body.appendChild(h("div", {class: "option-row players", role: "group", "aria-label": t("decision.players")}, players));
  if (row.children.length) body.appendChild(row);
  body.appendChild(targets);
}
