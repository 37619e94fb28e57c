/**
 * Carries a source's ICC profile and EXIF into an AVIF, whose encoder (@jsquash/avif) takes neither. The
 * AVIF is a HEIF file (ISO/IEC 23008-12): its `meta` box lists items (iinf), where their bytes are (iloc),
 * their properties (iprp: ipco, associated per item by ipma) and references between them (iref). We add, as
 * libavif itself does when given them:
 *
 * - the ICC profile as a second `colr` property (colour type `prof`; the encoder's `nclx` one stays, for the
 *   matrix and range), associated to the primary item, not essential;
 * - EXIF as an `Exif` item (its data: a 4-byte offset to the TIFF header, 0, then the TIFF data) at the end of
 *   the file's last `mdat`, described by a `cdsc` reference to the primary item.
 *
 * The meta box grows, so every file offset in iloc that points past it moves by as much.
 */
import { ascii, type Box, concat, makeBox, readBoxes, readUint, uint, writeUint } from "./isobmff.ts";

export interface AvifMetadata {
  /** The whole ICC profile (its chunks joined). */
  icc: Uint8Array | null;
  /** The TIFF data of the EXIF (what follows "Exif\0\0" in a JPEG's APP1), orientation already reset. */
  exif: Uint8Array | null;
}

export function addAvifMetadata(avif: Uint8Array, { icc, exif }: AvifMetadata): Uint8Array {
  if (!icc && !exif) return avif;
  const top = readBoxes(avif);
  const metas = top.filter((b) => b.type === "meta");
  if (metas.length !== 1) throw new Error(`An AVIF has one meta box; this one has ${metas.length}`);
  const meta = metas[0]!;
  const children = readBoxes(avif, meta.bodyStart + 4, meta.end);
  const child = (type: string) => children.find((b) => b.type === type);
  const pitm = child("pitm"), iinf = child("iinf"), iloc = child("iloc"), iprp = child("iprp");
  if (!pitm || !iinf || !iloc || !iprp) throw new Error("The AVIF's meta box lacks pitm, iinf, iloc or iprp");
  const primary = readUint(avif, pitm.bodyStart + 4, avif[pitm.bodyStart] === 0 ? 2 : 4);
  const items = readIinf(avif, iinf);
  const exifId = Math.max(0, ...items.ids, ...readIloc(avif, iloc).items.map((i) => i.id)) + 1;
  const payload = exif && concat([uint(4, 0), exif]);

  const metaWith = (delta: number, exifOffset: number) =>
    makeBox(
      "meta",
      children.map((box) => {
        if (box.type === "iprp" && icc) return withIcc(avif, box, primary, icc);
        if (box.type === "iloc") {
          const added = payload && { id: exifId, offset: exifOffset, length: payload.length };
          return shiftedIloc(avif, box, meta.end, delta, added);
        }
        if (payload && box.type === "iinf") return withItem(avif, box, items.entrySize, exifId);
        if (payload && box.type === "iref") return withReference(avif, box, exifId, primary);
        return avif.subarray(box.start, box.end);
      }).concat(payload && !child("iref") ? [makeReferences(exifId, primary)] : []),
      { version: avif[meta.bodyStart]!, flags: readUint(avif, meta.bodyStart + 1, 3) },
    );
  // The boxes' sizes do not depend on the offsets written in them: measure once, then write the real ones.
  const delta = metaWith(0, 0).length - (meta.end - meta.start);
  const last = top[top.length - 1]!;
  // The Exif data goes at the end of the last mdat when that is the file's last box (as the encoder writes
  // it), else into an mdat of its own.
  const growMdat = last.type === "mdat" && last.bodyStart - last.start === 8 && last.start >= meta.end;
  const exifOffset = avif.length + delta + (growMdat ? 0 : 8);
  const after = avif.slice(meta.end);
  const extra: Uint8Array[] = [];
  if (payload && growMdat) {
    // A size of 0 means "to the end of the file", which still holds.
    if (readUint(avif, last.start, 4) !== 0) {
      writeUint(after, last.start - meta.end, 4, last.end - last.start + payload.length);
    }
    extra.push(payload);
  } else if (payload) {
    extra.push(uint(4, payload.length + 8), ascii("mdat"), payload);
  }
  return concat([avif.subarray(0, meta.start), metaWith(delta, exifOffset), after, ...extra]);
}

interface Field {
  at: number;
  size: number;
  value: number;
}
interface IlocItem {
  id: number;
  constructionMethod: number;
  dataReferenceIndex: number;
  baseOffset: Field;
  extents: { offset: Field; length: Field }[];
}

/** The item location box (14496-12 §8.11.3), every version. */
function readIloc(bytes: Uint8Array, box: Box) {
  const version = bytes[box.bodyStart]!;
  let at = box.bodyStart + 4;
  const offsetSize = bytes[at]! >> 4, lengthSize = bytes[at]! & 15, baseOffsetSize = bytes[at + 1]! >> 4;
  const indexSize = version >= 1 ? bytes[at + 1]! & 15 : 0;
  at += 2;
  const read = (size: number): Field => {
    const field = { at, size, value: readUint(bytes, at, size) };
    at += size;
    return field;
  };
  const idSize = version < 2 ? 2 : 4;
  const count = read(idSize).value;
  const items: IlocItem[] = [];
  for (let i = 0; i < count; i++) {
    const id = read(idSize).value;
    const constructionMethod = version >= 1 ? read(2).value & 15 : 0;
    const dataReferenceIndex = read(2).value;
    const baseOffset = read(baseOffsetSize);
    const extents = [];
    for (let n = read(2).value; n > 0; n--) {
      read(indexSize);
      extents.push({ offset: read(offsetSize), length: read(lengthSize) });
    }
    items.push({ id, constructionMethod, dataReferenceIndex, baseOffset, extents });
  }
  if (at > box.end) throw new Error("The AVIF's iloc box is shorter than its items");
  return { version, offsetSize, lengthSize, baseOffsetSize, indexSize, idSize, items };
}

/**
 * iloc with every file offset past the old meta box moved by `delta` and, when given, one more item: one
 * extent at a file offset.
 */
function shiftedIloc(
  bytes: Uint8Array,
  box: Box,
  metaEnd: number,
  delta: number,
  added: { id: number; offset: number; length: number } | null,
): Uint8Array {
  const iloc = readIloc(bytes, box);
  const body = bytes.slice(box.bodyStart, box.end);
  const shift = (field: Field) => writeUint(body, field.at - box.bodyStart, field.size, field.value + delta);
  for (const item of iloc.items) {
    // Construction method 1 and 2 (idat, another item) and other files are not positions in this one.
    if (item.constructionMethod !== 0 || item.dataReferenceIndex !== 0) continue;
    const moves = item.extents.map((e) => item.baseOffset.value + e.offset.value >= metaEnd);
    if (!moves.some(Boolean)) continue;
    if (item.baseOffset.size > 0 && item.baseOffset.value > 0 && moves.every(Boolean)) shift(item.baseOffset);
    else if (iloc.offsetSize > 0) item.extents.forEach((e, i) => moves[i] && shift(e.offset));
    else throw new Error("The AVIF's iloc box cannot move its items");
  }
  if (!added) return box32("iloc", body);
  if (iloc.lengthSize === 0 || (iloc.offsetSize === 0 && iloc.baseOffsetSize === 0)) {
    throw new Error("The AVIF's iloc box cannot say where a new item is");
  }
  writeUint(body, 6, iloc.idSize, iloc.items.length + 1);
  const item = concat([
    uint(iloc.idSize, added.id),
    iloc.version >= 1 ? uint(2, 0) : new Uint8Array(), // construction method 0: a file offset
    uint(2, 0), // data reference index 0: this file
    uint(iloc.baseOffsetSize, iloc.offsetSize > 0 ? 0 : added.offset),
    uint(2, 1),
    uint(iloc.indexSize, 0),
    uint(iloc.offsetSize, iloc.offsetSize > 0 ? added.offset : 0),
    uint(iloc.lengthSize, added.length),
  ]);
  return box32("iloc", concat([body, item]));
}

/** The ids of the items in iinf, and the size of its entry count. */
function readIinf(bytes: Uint8Array, box: Box): { ids: number[]; entrySize: number } {
  const entrySize = bytes[box.bodyStart] === 0 ? 2 : 4;
  const ids = readBoxes(bytes, box.bodyStart + 4 + entrySize, box.end)
    .filter((b) => b.type === "infe" && bytes[b.bodyStart]! >= 2)
    .map((b) => readUint(bytes, b.bodyStart + 4, bytes[b.bodyStart] === 2 ? 2 : 4));
  return { ids, entrySize };
}

/** iinf with an `Exif` item entry (infe version 2: 16-bit id; 3: 32-bit). */
function withItem(bytes: Uint8Array, box: Box, entrySize: number, id: number): Uint8Array {
  const body = bytes.slice(box.bodyStart, box.end);
  writeUint(body, 4, entrySize, readUint(body, 4, entrySize) + 1);
  const wide = id > 0xffff;
  const infe = makeBox("infe", [uint(wide ? 4 : 2, id), uint(2, 0), ascii("Exif"), ascii("Exif\0")], {
    version: wide ? 3 : 2,
    flags: 0,
  });
  return box32("iinf", concat([body, infe]));
}

/** A `cdsc` reference (the Exif item describes the primary one) in a new iref box. */
function makeReferences(from: number, to: number): Uint8Array {
  const wide = Math.max(from, to) > 0xffff;
  return makeBox("iref", [cdsc(wide ? 4 : 2, from, to)], { version: wide ? 1 : 0, flags: 0 });
}

/** The iref box with one more `cdsc` reference. */
function withReference(bytes: Uint8Array, box: Box, from: number, to: number): Uint8Array {
  const idSize = bytes[box.bodyStart] === 0 ? 2 : 4;
  if (idSize === 2 && Math.max(from, to) > 0xffff) throw new Error("The AVIF's iref box has 16-bit item ids");
  return box32("iref", concat([bytes.subarray(box.bodyStart, box.end), cdsc(idSize, from, to)]));
}

const cdsc = (idSize: number, from: number, to: number) =>
  makeBox("cdsc", [uint(idSize, from), uint(2, 1), uint(idSize, to)]);

/** iprp with the ICC profile as a `colr` property of type `prof`, associated to the primary item. */
function withIcc(bytes: Uint8Array, iprp: Box, primary: number, icc: Uint8Array): Uint8Array {
  const children = readBoxes(bytes, iprp.bodyStart, iprp.end);
  const ipco = children.find((b) => b.type === "ipco");
  const ipma = children.find((b) => b.type === "ipma");
  if (!ipco || !ipma) throw new Error("The AVIF's iprp box lacks ipco or ipma");
  const index = readBoxes(bytes, ipco.bodyStart, ipco.end).length + 1;
  const colr = makeBox("colr", [ascii("prof"), icc]);
  return makeBox(
    "iprp",
    children.map((box) => {
      if (box === ipco) return box32("ipco", concat([bytes.subarray(ipco.bodyStart, ipco.end), colr]));
      if (box === ipma) return withAssociation(bytes, ipma, primary, index);
      return bytes.subarray(box.start, box.end);
    }),
  );
}

/** ipma with property `index` (not essential) associated to `item` (14496-12 / 23008-12 §9.3). */
function withAssociation(bytes: Uint8Array, box: Box, item: number, index: number): Uint8Array {
  const version = bytes[box.bodyStart]!, wideIndex = (bytes[box.bodyStart + 3]! & 1) === 1;
  if (index >= (wideIndex ? 0x8000 : 0x80)) throw new Error("The AVIF's ipma box cannot index another property");
  const idSize = version < 1 ? 2 : 4, indexSize = wideIndex ? 2 : 1;
  const body = bytes.slice(box.bodyStart, box.end);
  let at = 4;
  const count = readUint(body, at, 4);
  at += 4;
  for (let i = 0; i < count; i++) {
    const id = readUint(body, at, idSize), n = body[at + idSize]!;
    const next = at + idSize + 1 + n * indexSize;
    if (id === item) {
      if (n === 255) throw new Error("The AVIF's primary item has 255 properties");
      body[at + idSize] = n + 1;
      return box32("ipma", concat([body.subarray(0, next), uint(indexSize, index), body.subarray(next)]));
    }
    at = next;
  }
  writeUint(body, 4, 4, count + 1);
  return box32("ipma", concat([body, uint(idSize, item), uint(1, 1), uint(indexSize, index)]));
}

/** A box from its type and whole payload (a FullBox's version and flags included). */
const box32 = (type: string, payload: Uint8Array) => makeBox(type, [payload]);
