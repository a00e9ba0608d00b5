// Loads .cpuprofile files into Chrome DevTools' own model
// (front_end/models/cpu_profile/CPUProfileDataModel.ts from the
// chrome-devtools-frontend package, bundled with esbuild) and checks what
// DevTools would show: the call tree, self times, samples and timestamps.
//
//   node devtools-cpuprofile.mjs NODE_MODULES EXPECTED.json FILE.cpuprofile...
import { createRequire } from "node:module";
import { readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { check, finish } from "./check.mjs";

const [modules, expectedPath, ...files] = process.argv.slice(2);
const { build } = createRequire(join(modules, "package.json"))("esbuild");
const entry = join(modules, "chrome-devtools-frontend/front_end/models/cpu_profile/CPUProfileDataModel.ts");
const out = join(mkdtempSync(join(tmpdir(), "devtools-")), "model.mjs");
await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", outfile: out, logLevel: "error" });
const { CPUProfileDataModel } = await import(pathToFileURL(out));
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const model = new CPUProfileDataModel(profile);
  const want = expected[file.split("/").pop()];
  check(model.samples.length === want.samples, `${file}: ${model.samples.length} samples, want ${want.samples}`);
  // Self time per function name (ms), as the Bottom-Up view sums it.
  const selfByName = {};
  const walk = (node, depth) => {
    check(node.depth === depth, `${file}: depth of ${node.functionName}`);
    const name = node.functionName || "(anonymous)";
    selfByName[name] = (selfByName[name] || 0) + node.self;
    for (const child of node.children) walk(child, depth + 1);
  };
  check(model.root.functionName === "(root)", `${file}: root is ${model.root.functionName}`);
  walk(model.root, -1);
  // DevTools spreads the profile's duration evenly over the hits.
  const totalSelf = Object.values(selfByName).reduce((a, b) => a + b, 0);
  const perSample = totalSelf / want.samples;
  // (DevTools ends the timeline one average interval after the last
  // sample; the file says one sample interval.)
  check(Math.abs(totalSelf - (model.profileEndTime - model.profileStartTime)) < 0.02 * totalSelf,
    `${file}: self times sum to ${totalSelf} ms, the profile lasts ${model.profileEndTime - model.profileStartTime} ms`);
  for (const [name, samples] of Object.entries(want.selfSamples)) {
    const ms = selfByName[name] || 0;
    check(Math.abs(ms - samples * perSample) < 1e-6 * Math.max(1, ms),
      `${file}: self of ${name} is ${ms} ms, want ${samples} samples of ${perSample} ms`);
  }
  // DevTools keeps 0-based positions in callFrame; the trace's are 1-based.
  for (const [name, line, column] of want.positions) {
    const node = model.profileHead && findNode(model.root, name);
    check(node && node.lineNumber === line - 1 && node.columnNumber === column - 1,
      `${file}: ${name} at ${node && node.lineNumber}:${node && node.columnNumber}, want 0-based ${line - 1}:${column - 1}`);
  }
  // One timestamp per sample plus the end.
  check(model.timestamps.length === model.samples.length + 1, `${file}: ${model.timestamps.length} timestamps`);
  for (let i = 1; i < model.timestamps.length; i++) {
    check(model.timestamps[i] >= model.timestamps[i - 1], `${file}: timestamps in order at ${i}`);
  }
  // forEachFrame replays the samples as open/close events (the flame chart).
  let opens = 0, closes = 0;
  model.forEachFrame(() => opens++, () => closes++);
  check(opens > 0 && opens === closes, `${file}: flame chart events ${opens} open, ${closes} close`);
  console.log(`${file}: DevTools model OK (${model.samples.length} samples, ${(model.profileEndTime - model.profileStartTime).toFixed(1)} ms, ${opens} flame chart frames)`);
}
function findNode(node, name) {
  if (node.functionName === name) return node;
  for (const child of node.children) {
    const found = findNode(child, name);
    if (found) return found;
  }
  return null;
}
finish();
