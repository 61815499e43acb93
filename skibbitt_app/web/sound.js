// Short tones for taps, selections, a win and a loss (Web Audio; silent without a device).

let audio = null;
const NOTES = { tap: [660], no: [220], select: [523, 784], win: [523, 659, 784, 1047], lose: [392, 330] };

export function play(what) {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    NOTES[what].forEach((f, j) => {
      const at = audio.currentTime + j * 0.12;
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.08, at);
      g.gain.exponentialRampToValueAtTime(0.001, at + 0.11);
      o.connect(g).connect(audio.destination);
      o.start(at);
      o.stop(at + 0.12);
    });
  } catch (e) { /* no audio device: play on silently */ }
}
