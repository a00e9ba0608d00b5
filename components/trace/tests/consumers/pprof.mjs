// Decodes gzipped profile.proto files with the pprof-format package (the
// pure-JavaScript pprof decoder of Datadog's Node.js profiler) and checks
// the sample types, the period and the samples per function.
//
//   node pprof.mjs NODE_MODULES EXPECTED.json FILE.pb.gz...
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { check, finish } from "./check.mjs";

const [modules, expectedPath, ...files] = process.argv.slice(2);
const { Profile } = createRequire(join(modules, "package.json"))("pprof-format");
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));
for (const file of files) {
  const profile = Profile.decode(gunzipSync(readFileSync(file)));
  const want = expected[file.split("/").pop()];
  const str = (i) => profile.stringTable.strings[Number(i)];
  const types = profile.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`);
  check(types.join(",") === "samples/count,cpu/nanoseconds", `${file}: sample types ${types}`);
  check(`${str(profile.periodType.type)}/${str(profile.periodType.unit)}` === "cpu/nanoseconds", `${file}: period type`);
  check(Number(profile.period) === want.periodNs, `${file}: period ${profile.period}, want ${want.periodNs}`);
  const functions = new Map(profile.function.map((f) => [Number(f.id), f]));
  const locations = new Map(profile.location.map((l) => [Number(l.id), l]));
  let total = 0;
  const selfByName = {};
  for (const sample of profile.sample) {
    const count = Number(sample.value[0]);
    check(Number(sample.value[1]) === count * want.periodNs, `${file}: cpu value of a sample`);
    total += count;
    const leaf = locations.get(Number(sample.locationId[0]));
    const fn = functions.get(Number(leaf.line[0].functionId));
    const name = str(fn.name);
    selfByName[name] = (selfByName[name] || 0) + count;
  }
  check(total === want.samples, `${file}: ${total} samples, want ${want.samples}`);
  for (const [name, samples] of Object.entries(want.selfSamples)) {
    check(selfByName[name] === samples, `${file}: ${name} has ${selfByName[name]} samples, want ${samples}`);
  }
  for (const [name, line, column] of want.positions || []) {
    const loc = profile.location.find((l) => str(functions.get(Number(l.line[0].functionId)).name) === name);
    check(loc && Number(loc.line[0].line) === line && Number(loc.line[0].column) === column,
      `${file}: ${name} at ${loc && loc.line[0].line}:${loc && loc.line[0].column}, want ${line}:${column}`);
  }
  console.log(`${file}: pprof-format decoded OK (${profile.sample.length} stacks, ${total} samples, period ${profile.period} ns)`);
}
finish();
