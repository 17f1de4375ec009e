import { describe, expect, it } from 'vitest';
import { tinyPdf } from '../../src/platform-simulator/pdf.js';

describe('tiny PDF', () => {
  it('has a cross-reference table whose offsets point at its objects', () => {
    const pdf = tinyPdf(['Scheda di registrazione', 'Zoë (Müller)']).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    for (const [i, offset] of offsets.entries())
      expect(pdf.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`);
    expect(pdf).toContain('(Zoe \\(Muller\\)) Tj');
    const length = Number(/\/Length (\d+)/.exec(pdf)?.[1]);
    const stream = /stream\n([\s\S]*?)\nendstream/.exec(pdf)?.[1] ?? '';
    expect(stream.length).toBe(length);
  });
});
