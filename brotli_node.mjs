// brotli_node.mjs: brotli-compresses files with Node's zlib (a build step of site_compress.py).
//
//   node brotli_node.mjs LIST.json      LIST: [[source, destination], ...]
//
// Quality 11 (the highest), a 4 MB window (what every browser accepts) and the file's
// size as a hint; each destination is written whole (a temporary file, then renamed),
// so an interrupted run never leaves a truncated result in the cache.
import fs from "node:fs";
import zlib from "node:zlib";

const QUALITY = 11; // site_compress.BROTLI_QUALITY
const WINDOW_BITS = 22;

const pairs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
for (const [source, destination] of pairs) {
  const data = fs.readFileSync(source);
  const packed = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [zlib.constants.BROTLI_PARAM_LGWIN]: WINDOW_BITS,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const tmp = `${destination}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, packed);
  fs.renameSync(tmp, destination);
}
