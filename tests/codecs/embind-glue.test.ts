/** MozJPEG's glue with embind's byte loop replaced (codecs/embind-glue.ts) against the glue as packaged. */
import assert from "node:assert/strict";
import mozjpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.js";
import mozjpegEncoder from "@jsquash/jpeg/codec/enc/mozjpeg_enc.js";
import { defaultOptions } from "@jsquash/jpeg/meta.js";
import { bulkCopyGlue, withBulkCopy } from "../../codecs/embind-glue.ts";
import { CODEC_WASM, codecModule, compilePackageWasm } from "../../codecs/wasm.ts";
import { fixture, smoothPhoto } from "./helpers.ts";

const LOOP = "for(var i=0;i<length;++i){HEAPU8[ptr+i]=value[i]}";

Deno.test("withBulkCopy replaces exactly one byte loop, and leaves a glue with none or two alone", () => {
  const glue = `a;{${LOOP}}b`;
  assert.equal(withBulkCopy(glue), "a;{HEAPU8.set(value,ptr)}b");
  assert.equal(withBulkCopy("a;b"), null);
  assert.equal(withBulkCopy(`${glue}${glue}`), null);
});

for (const specifier of ["@jsquash/jpeg/codec/enc/mozjpeg_enc.js", "@jsquash/jpeg/codec/dec/mozjpeg_dec.js"]) {
  Deno.test(`${specifier} as installed has the one byte loop the patch replaces`, async () => {
    const text = await Deno.readTextFile(new URL(import.meta.resolve(specifier)));
    const patched = withBulkCopy(text);
    assert(patched !== null, "the loop is gone: a jsquash upgrade; see codecs/embind-glue.ts");
    assert(!patched.includes(LOOP));
  });
}

type Make<T> = (overrides: Record<string, unknown>) => Promise<T>;
interface Encoder {
  encode(data: Uint8ClampedArray, w: number, h: number, o: typeof defaultOptions): Uint8Array;
}
interface Decoder {
  decode(data: Uint8Array, preserveOrientation: boolean): ImageData;
}

Deno.test("the patched encoder and decoder give the packaged glue's bytes and pixels", async () => {
  const instantiate = async <T>(glue: Make<T>, wasm: "mozjpeg-encode" | "mozjpeg-decode") => {
    const [entry, file] = CODEC_WASM[wasm];
    return await glue({ noInitialRun: true, ...codecModule(await compilePackageWasm(entry, file)) });
  };
  const packaged = { enc: mozjpegEncoder as unknown as Make<Encoder>, dec: mozjpegDecoder as unknown as Make<Decoder> };
  const patched = {
    enc: await bulkCopyGlue("@jsquash/jpeg/codec/enc/mozjpeg_enc.js", packaged.enc),
    dec: await bulkCopyGlue("@jsquash/jpeg/codec/dec/mozjpeg_dec.js", packaged.dec),
  };
  assert.notEqual(patched.enc, packaged.enc, "the encoder's glue was not replaced");
  assert.notEqual(patched.dec, packaged.dec, "the decoder's glue was not replaced");
  const [oldEnc, newEnc] = [
    await instantiate(packaged.enc, "mozjpeg-encode"),
    await instantiate(patched.enc, "mozjpeg-encode"),
  ];
  const [oldDec, newDec] = [
    await instantiate(packaged.dec, "mozjpeg-decode"),
    await instantiate(patched.dec, "mozjpeg-decode"),
  ];

  for (const source of [await fixture("base.jpg"), await smoothPhoto(801, 603)]) {
    const pixels = oldDec.decode(source, false);
    assert.deepEqual(newDec.decode(source, false).data, pixels.data);
    for (const quality of [40, 85]) {
      const options = { ...defaultOptions, quality };
      const expected = oldEnc.encode(pixels.data, pixels.width, pixels.height, options);
      assert(expected.length > 1000);
      assert.deepEqual(newEnc.encode(pixels.data, pixels.width, pixels.height, options), expected);
    }
  }
});
