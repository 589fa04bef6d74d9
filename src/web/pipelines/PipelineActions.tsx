/** A saved pipeline's actions beside its editor: run, fork, share, revisions, delete (being built: issue 17). */
export function PipelineActions(_props: { pipelineId: string }) {
  return null;
}
