// The controls that step one recorded tree through its search (lab-steps.js): start, back,
// forward, the next cutoff, and playing at a chosen speed; the event in words, the path's
// nodes with their alpha, beta and best value, the node marked in the tree and shown on the
// board.

import { t } from './i18n.js';
import { showValue } from './lab-tree.js';
import { events, stack, describe, nextCutoff } from './lab-steps.js';

const SPEEDS = { slow: 1200, normal: 500, fast: 120 };

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text != null) node.textContent = text;
  return node;
}

function button(name, label, title) {
  const b = el('button', 'lab-step-btn', label);
  b.type = 'button';
  b.dataset.step = name;
  b.title = title;
  b.setAttribute('aria-label', title);
  return b;
}

/** A stepper for the tree drawn in `column` (drawTree's output), placed above it. `show(path)`
 * puts a path on the board; `partner()` is the other stepper when both step together. */
export class Stepper {
  constructor(column, tree, algorithm, show, partner) {
    this.column = column;
    this.list = events(tree.root, /^(alphabeta|pvs)/.test(algorithm));
    this.at = 0;
    this.show = show;
    this.partner = partner;
    this.timer = null;
    /** The tree's picture (lab-picture.js), marked as the steps go. */
    this.picture = null;
    this.bar = el('div', 'lab-steps');
    const controls = el('div', 'lab-step-controls');
    this.buttons = {
      start: button('start', '|◀', t('labStepStart')),
      back: button('back', '◀', t('labStepBackBtn')),
      forward: button('forward', '▶', t('labStepForward')),
      cutoff: button('cutoff', '✂', t('labStepNextCut')),
      play: button('play', '▶▶', t('labStepPlay')),
    };
    this.speed = el('select', 'lab-step-speed');
    this.speed.setAttribute('aria-label', t('labStepSpeed'));
    for (const name of Object.keys(SPEEDS)) this.speed.add(new Option(t(`labSpeed_${name}`), name));
    this.speed.value = 'normal';
    controls.append(...Object.values(this.buttons), this.speed);
    this.counter = el('span', 'lab-step-count');
    controls.append(this.counter);
    this.text = el('p', 'lab-step-text');
    this.text.setAttribute('aria-live', 'polite');
    this.path = el('table', 'lab-step-stack');
    this.bar.append(controls, this.text, this.path);
    column.insertBefore(this.bar, column.children[1] || null);
    for (const [name, b] of Object.entries(this.buttons)) {
      b.addEventListener('click', () => this.act(name, true));
    }
    this.draw();
  }

  /** Does `name`; with `both`, the partner does it too when the two step together. */
  act(name, both) {
    if (name === 'play') {
      this.toggle();
    } else {
      this.stop();
      if (name === 'start') this.at = 0;
      if (name === 'back') this.at = Math.max(0, this.at - 1);
      if (name === 'forward') this.at = Math.min(this.list.length - 1, this.at + 1);
      if (name === 'cutoff') this.at = nextCutoff(this.list, this.at);
      this.draw();
    }
    const other = both && this.partner();
    if (other) other.act(name, false);
  }

  toggle() {
    if (this.timer) {
      this.stop();
      return;
    }
    this.buttons.play.classList.add('on');
    this.timer = setInterval(() => {
      if (this.at >= this.list.length - 1) {
        this.stop();
        return;
      }
      this.at += 1;
      this.draw();
    }, SPEEDS[this.speed.value]);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.buttons.play.classList.remove('on');
  }

  /** Forgets the tree (another was drawn). */
  detach() {
    this.stop();
    this.bar.remove();
  }

  draw() {
    const e = this.list[this.at];
    this.counter.textContent = `${this.at + 1} / ${this.list.length}`;
    this.text.textContent = describe(e);
    this.text.dataset.kind = e.kind;
    this.path.replaceChildren();
    const head = el('tr');
    for (const key of ['labStepNode', 'labStepAlphaCol', 'labStepBetaCol', 'labStepBestCol']) head.append(el('th', null, t(key)));
    this.path.append(head);
    for (const node of stack(this.list, this.at)) {
      const row = el('tr');
      const name = node.path.length ? node.path[node.path.length - 1] : t('labRoot');
      for (const text of [name, showValue(node.alpha), showValue(node.beta), node.best == null ? '–' : showValue(node.best)]) {
        row.append(el('td', null, text));
      }
      this.path.append(row);
    }
    this.mark(e.ids);
    this.picture?.mark(e.ids);
    this.show(e.path);
  }

  /** Opens the tree down to the node at `ids` (its children's indices from the root) and
   * marks it and its ancestors. */
  mark(ids) {
    for (const old of this.column.querySelectorAll('.lab-step-on, .lab-step-here')) {
      old.classList.remove('lab-step-on', 'lab-step-here');
    }
    for (let i = 1; i <= ids.length; i++) {
      const key = ids.slice(0, i).join('.');
      const node = this.column.querySelector(`button.lab-node[data-node="${key}"]`);
      if (!node) return;
      const li = node.parentElement;
      const expanded = li.getAttribute('aria-expanded');
      if (i < ids.length && expanded === 'false') node.click();
      node.classList.add(i === ids.length ? 'lab-step-here' : 'lab-step-on');
      if (i === ids.length) node.scrollIntoView({ block: 'nearest' });
    }
  }
}
