/**
 * A large hand-written-looking pipeline for the browser benchmark: `rules` rules in layers of `width`, each
 * rule reading the outputs of two rules of the layer before (so the graph has as many edges as a real
 * workflow of that size), one job per rule.
 */
export function layeredPipelineText(rules: number, width = 10): string {
  const parts = [`[workflow]\nname = "bench-layered-${rules}"\nversion = "1.0.0"\ndescription = "${rules} rules in layers of ${width}"\n`];
  for (let i = 0; i < rules; i++) {
    const layer = Math.floor(i / width);
    const inputs = layer === 0 ? [] : [((layer - 1) * width + (i % width)), ((layer - 1) * width + ((i + 1) % width))].map((from) => `"out/r${from}.txt"`);
    parts.push(`[[rules]]\nname = "r${i}"\n${inputs.length > 0 ? `input = [${inputs.join(", ")}]\n` : ""}output = ["out/r${i}.txt"]\nshell = "cat {input} > {output}; echo r${i} >> {output}"\n`);
  }
  return parts.join("\n");
}
