// sound.js: the table's few sounds, made with Web Audio (no sound files to download): a card
// laid on the table, a trick swept to its winner. Each is a short burst of filtered noise, quiet
// and low, so it reads as a card rather than a beep. Browsers let a page make sound only after
// the player has touched it, so the audio context is made on the first click or key (`unlock`)
// and never before; without Web Audio every sound is simply silent.

/** How loud each sound is at its peak (0..1 of full scale): soft, under speech. */
const VOLUME = 0.22;
/** A card laid down: a short, bright slap. */
const CARD = Object.freeze({ ms: 70, from: 2600, to: 1400, q: 0.9 });
/** A trick swept away: a longer, darker brush. */
const TRICK = Object.freeze({ ms: 220, from: 1800, to: 500, q: 0.6 });

/**
 * The page's sounds. `isOn()` says whether sound is wanted now (the player's setting, and in a
 * frame the author's `sound=1`); it is asked at each sound, so a change applies at once.
 */
export function createSound(isOn) {
  let ctx = null;
  let noise = null;

  /** Make the audio context on a gesture of the player (the only time a browser allows it). */
  function unlock() {
    if (ctx || !isOn()) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      ctx = new Context();
    } catch {
      ctx = null;
    }
  }

  /** One second of white noise, made once and reused by every sound. */
  function noiseBuffer() {
    if (!noise) {
      noise = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
      const data = noise.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    }
    return noise;
  }

  /** Play noise through a band-pass filter sweeping `from` -> `to` Hz, fading out over `ms`. */
  function burst({ ms, from, to, q }) {
    if (!ctx || !isOn()) return;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    const now = ctx.currentTime;
    const end = now + ms / 1000;
    const source = ctx.createBufferSource();
    source.buffer = noiseBuffer();
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.Q.value = q;
    filter.frequency.setValueAtTime(from, now);
    filter.frequency.exponentialRampToValueAtTime(to, end);
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(VOLUME, now);
    gain.gain.exponentialRampToValueAtTime(0.001, end);
    source.connect(filter).connect(gain).connect(ctx.destination);
    source.start(now);
    source.stop(end);
  }

  return {
    unlock,
    /** A card laid on the table. */
    card: () => burst(CARD),
    /** A trick swept to its winner. */
    trick: () => burst(TRICK),
  };
}
