// Stand-in line icons for the harness page. The obsidian runtime draws every icon as an empty
// `<svg class="svg-icon" data-icon="…">` (no icon library in tests); in a browser an empty svg is an
// invisible button, so the page fills the icons the plugin uses with simple strokes of its own.
// Unknown ids get a small ring, so every icon button is at least visible.

const PATHS: Record<string, string[]> = {
  'messages-square': ['M4 4h12v9H9l-3 3v-3H4z', 'M18 8h2v9h-2v3l-3-3h-5'],
  'square-pen': ['M12 4H5v15h15v-7', 'M18 3l3 3-9 9H9v-3z'],
  'fold-vertical': ['M12 3v6', 'M9 6l3 3 3-3', 'M12 21v-6', 'M9 18l3-3 3 3', 'M4 12h16'],
  settings: ['M12 9a3 3 0 1 0 0.01 0', 'M12 3v3', 'M12 18v3', 'M3 12h3', 'M18 12h3', 'M5.6 5.6l2.1 2.1', 'M16.3 16.3l2.1 2.1', 'M5.6 18.4l2.1-2.1', 'M16.3 7.7l2.1-2.1'],
  copy: ['M8 8h12v12H8z', 'M4 16V4h12'],
  'file-input': ['M8 3h7l4 4v14H8', 'M2 14h10', 'M9 11l3 3-3 3'],
  'refresh-cw': ['M20 12a8 8 0 1 1-2.3-5.7', 'M20 4v5h-5'],
  pencil: ['M4 20l1-5L16 4l4 4L9 19z'],
  'panel-right': ['M4 4h16v16H4z', 'M15 4v16'],
  'undo-2': ['M9 14L4 9l5-5', 'M4 9h10a6 6 0 0 1 0 12h-3'],
  x: ['M6 6l12 12', 'M18 6L6 18'],
  'chevron-right': ['M9 6l6 6-6 6'],
  'chevron-down': ['M6 9l6 6 6-6'],
  'list-tree': ['M3 5h4', 'M3 12h4', 'M3 19h4', 'M10 5h11', 'M10 12h11', 'M10 19h11'],
  'corner-down-right': ['M15 10l5 5-5 5', 'M4 4v7a4 4 0 0 0 4 4h12'],
  history: ['M3 12a9 9 0 1 0 3-6.7', 'M3 4v5h5', 'M12 7v5l3 3'],
  pin: ['M12 17v5', 'M8 3h8', 'M9 3v7l-3 4v3h12v-3l-3-4V3'],
  'pin-off': ['M12 17v5', 'M8 3h8', 'M9 3v7l-3 4v3h12v-3l-3-4V3', 'M3 3l18 18'],
};
const FALLBACK = ['M12 8a4 4 0 1 0 0.01 0'];
const SVG_NS = 'http://www.w3.org/2000/svg';

function fill(svg: Element): void {
  if (svg.childElementCount > 0) return;
  const id = svg.getAttribute('data-icon') ?? '';
  for (const d of PATHS[id] ?? FALLBACK) {
    const path = svg.ownerDocument.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    svg.appendChild(path);
  }
}

/** Fills every runtime icon in `root`, now and whenever one is added. */
export function drawIcons(root: HTMLElement): MutationObserver {
  for (const svg of Array.from(root.querySelectorAll('svg.svg-icon[data-icon]'))) fill(svg);
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of Array.from(record.addedNodes)) {
        if (!node.instanceOf(Element)) continue;
        if (node.matches('svg.svg-icon[data-icon]')) fill(node);
        for (const svg of Array.from(node.querySelectorAll('svg.svg-icon[data-icon]'))) fill(svg);
      }
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  return observer;
}
