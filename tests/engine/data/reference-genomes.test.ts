/**
 * Reference discovery in the three common layouts, what is missing per component, and the commands that
 * obtain or build it — download URLs from the genome's own species.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverGenomes, displayUnder, genomeStatus } from "../../../src/engine/data/reference-genomes.js";

describe("reference genomes", () => {
  let root: string;
  const touch = (...parts: string[]) => {
    const path = join(root, ...parts);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "x");
  };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "strand-refs-"));
    // iGenomes, complete but for HISAT2
    const ig = ["Homo_sapiens", "NCBI", "GRCh38"];
    touch(...ig, "Sequence", "WholeGenomeFasta", "genome.fa");
    touch(...ig, "Sequence", "WholeGenomeFasta", "genome.fa.fai");
    touch(...ig, "Sequence", "WholeGenomeFasta", "genome.dict");
    for (const suffix of [".bwt", ".pac", ".ann", ".amb", ".sa"]) touch(...ig, "Sequence", "BWAIndex", "version0.6.0", `genome.fa${suffix}`);
    for (const suffix of [".1.bt2", ".2.bt2", ".3.bt2", ".4.bt2", ".rev.1.bt2", ".rev.2.bt2"]) touch(...ig, "Sequence", "Bowtie2Index", `genome${suffix}`);
    for (const name of ["SA", "SAindex", "Genome"]) touch(...ig, "Sequence", "STARIndex", name);
    touch(...ig, "Annotation", "Genes", "genes.gtf");
    // Ensembl download of mouse: FASTA and GTF only
    touch("mus_musculus", "GRCm39", "Mus_musculus.GRCm39.dna.primary_assembly.fa.gz");
    touch("mus_musculus", "GRCm39", "Mus_musculus.GRCm39.112.gtf.gz");
    // A flat folder: FASTA with its index and a half-built BWA index
    touch("phiX", "phiX.fa");
    touch("phiX", "phiX.fa.fai");
    touch("phiX", "phiX.bwt");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("finds genomes in the iGenomes, Ensembl and flat layouts, per component", () => {
    const genomes = discoverGenomes([root], displayUnder([root]));
    expect(genomes.map((genome) => [genome.genome, genome.layout, genome.species])).toEqual([
      ["GRCh38", "igenomes", "Homo sapiens"],
      ["GRCm39", "ensembl", "mus musculus"],
      ["phiX", "flat", null],
    ]);
    const [human, mouse, phix] = genomes;
    expect(human!.missing).toEqual(["hisat2"]);
    expect(human!.components.find((entry) => entry.component === "bwa")!.path).toMatch(/BWAIndex\/version0\.6\.0\/genome\.fa$/);
    expect(mouse!.missing).toEqual(["fai", "dict", "bwa", "bowtie2", "star", "hisat2"]);
    expect(phix!.missing).toEqual(["dict", "annotation", "bwa", "bowtie2", "star", "hisat2"]); // a .bwt alone is no index
    // No server path in what is shown.
    expect(JSON.stringify(genomes)).not.toContain(root);
  });

  it("says how to build each missing index from the genome's own FASTA", () => {
    const [, mouse] = discoverGenomes([root], displayUnder([root]));
    const command = (component: string) => mouse!.components.find((entry) => entry.component === component)!.command;
    expect(command("fai")).toMatch(/^samtools faidx .*Mus_musculus\.GRCm39\.dna\.primary_assembly\.fa$/);
    expect(command("bwa")).toMatch(/^bwa index -p /);
    expect(command("star")).toMatch(/^STAR --runMode genomeGenerate .*--sjdbGTFfile .*Mus_musculus\.GRCm39\.112\.gtf /);
    expect(command("hisat2")).toMatch(/^hisat2-build /);
  });

  it("gives species-correct downloads for a known build that is absent", () => {
    const zebrafish = genomeStatus([root], "danRer11");
    expect(zebrafish).toMatchObject({ genome: "GRCz11", layout: "none", species: "Danio rerio" });
    const fasta = zebrafish.components.find((entry) => entry.component === "fasta")!.command!;
    expect(fasta).toContain("/fasta/danio_rerio/dna/Danio_rerio.GRCz11.dna.primary_assembly.fa.gz");
    const mouse = genomeStatus([], "mm10");
    expect(mouse.components.find((entry) => entry.component === "annotation")!.command).toContain("goldenPath/mm10/bigZips/genes/mm10.ncbiRefSeq.gtf.gz");
    expect(genomeStatus([], "GRCm39").components.find((entry) => entry.component === "fasta")!.command).toContain("mus_musculus/dna/Mus_musculus.GRCm39");
    expect(genomeStatus([], "made-up-genome").components.find((entry) => entry.component === "fasta")!.command).toMatch(/no download is known for 'made-up-genome'/);
    // A known build found under another name is the one on disk.
    expect(genomeStatus([root], "grch38").layout).toBe("igenomes");
  });
});
