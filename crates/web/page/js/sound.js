// Sounds made with WebAudio: a wooden knock for a move, a heavier one for a capture, a two-tone
// call for check and a short phrase at the end. Nothing is downloaded.

import { settings } from './settings.js';

let ctx = null;
let muted = settings.muted();

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = value;
  settings.setMuted(value);
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === 'suspended') ctx.resume();
  return ctx;
}

function knock(a, at, freq, gain, length) {
  const noise = a.createBuffer(1, Math.floor(a.sampleRate * length), a.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * Math.exp(-i / (data.length / 6));
  const src = a.createBufferSource();
  src.buffer = noise;
  const filter = a.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  filter.Q.value = 3;
  const g = a.createGain();
  g.gain.setValueAtTime(gain, at);
  g.gain.exponentialRampToValueAtTime(0.001, at + length);
  src.connect(filter).connect(g).connect(a.destination);
  src.start(at);
  const osc = a.createOscillator();
  osc.frequency.setValueAtTime(freq / 2, at);
  osc.frequency.exponentialRampToValueAtTime(freq / 4, at + length);
  const og = a.createGain();
  og.gain.setValueAtTime(gain * 0.5, at);
  og.gain.exponentialRampToValueAtTime(0.001, at + length);
  osc.connect(og).connect(a.destination);
  osc.start(at);
  osc.stop(at + length);
}

function tone(a, at, freq, length, gain = 0.18, type = 'triangle') {
  const osc = a.createOscillator();
  osc.type = type;
  osc.frequency.value = freq;
  const g = a.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(gain, at + 0.02);
  g.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(g).connect(a.destination);
  osc.start(at);
  osc.stop(at + length + 0.05);
}

/** Plays `move`, `capture`, `check`, `end`, `error` or `warning` (ten seconds left). */
export function play(kind) {
  if (muted) return;
  const a = audio();
  if (!a) return;
  const t = a.currentTime + 0.01;
  switch (kind) {
    case 'move': knock(a, t, 1400, 0.6, 0.09); break;
    case 'capture': knock(a, t, 900, 0.9, 0.14); knock(a, t + 0.05, 600, 0.6, 0.12); break;
    case 'check': tone(a, t, 880, 0.16); tone(a, t + 0.17, 660, 0.22); break;
    case 'end': tone(a, t, 523, 0.25); tone(a, t + 0.2, 659, 0.25); tone(a, t + 0.4, 784, 0.45); break;
    case 'error': tone(a, t, 220, 0.15, 0.12, 'square'); break;
    case 'warning': tone(a, t, 1320, 0.08, 0.14, 'sine'); tone(a, t + 0.14, 1320, 0.08, 0.14, 'sine'); break;
    default: break;
  }
}
