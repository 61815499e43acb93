// How a tile looks: its shape filled with its colour and its letter on top, as SVG for the
// page and on a canvas for Boast's picture, both from the same outlines.

export const COLORS = ["#d62828", "#f77f00", "#f2c500", "#2a9d3f", "#1f6fd1", "#7b3fb5"];
const LETTERS = "ABCDEF";

function polygon(n, r, cy) {
  let d = "";
  for (let j = 0; j < n; j++) {
    const a = -Math.PI / 2 + (2 * Math.PI * j) / n;
    d += (j ? "L" : "M") + (50 + r * Math.cos(a)).toFixed(1) + " " + (cy + r * Math.sin(a)).toFixed(1);
  }
  return d + "Z";
}

// Outlines in a 100 x 100 box, by side count: circle, digon (a lens), dome, square,
// pentagon, hexagon.
const OUTLINES = [null,
  "M8 50 A42 42 0 1 0 92 50 A42 42 0 1 0 8 50Z",
  "M6 50 Q50 -8 94 50 Q50 108 6 50Z",
  "M8 88 L92 88 A42 70 0 0 0 8 88Z",
  "M10 10 H90 V90 H10Z",
  polygon(5, 46, 54),
  polygon(6, 46, 50)];

const letterY = (shape) => (shape === 3 ? 72 : shape === 5 ? 66 : 63);

export function tileSvg(tile) {
  return '<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
    + '<path d="' + OUTLINES[tile.shape] + '" fill="' + COLORS[tile.color - 1]
    + '" stroke="#111" stroke-width="3"/>'
    + '<text x="50" y="' + letterY(tile.shape) + '" text-anchor="middle" font-size="38"'
    + ' font-weight="700" font-family="DejaVu Sans, sans-serif" fill="#fff" stroke="#111"'
    + ' stroke-width="6" paint-order="stroke">' + LETTERS[tile.letter - 1] + "</text></svg>";
}

export function drawTile(g, tile, x, y, size) {
  g.fillStyle = "#e9eef2";
  g.fillRect(x, y, size, size);
  g.save();
  g.translate(x, y);
  g.scale(size / 100, size / 100);
  const outline = new Path2D(OUTLINES[tile.shape]);
  g.fillStyle = COLORS[tile.color - 1];
  g.fill(outline);
  g.lineWidth = 3;
  g.strokeStyle = "#111";
  g.stroke(outline);
  g.font = "bold 38px DejaVu Sans, sans-serif";
  g.textAlign = "center";
  g.lineWidth = 6;
  g.strokeText(LETTERS[tile.letter - 1], 50, letterY(tile.shape));
  g.fillStyle = "#fff";
  g.fillText(LETTERS[tile.letter - 1], 50, letterY(tile.shape));
  g.restore();
}

export const letterOf = (tile) => LETTERS[tile.letter - 1];
