import type { TranscriptDto } from '@earshot/contracts';

/**
 * A completed transcript as the gateway answers it, for the editor's page tests. No duration: the
 * waveform player and its overview (wavesurfer, not under test) stay away.
 */
export function completedTranscript(
  ids: { id: string; fileId: string },
  metadata: Pick<TranscriptDto['metadata'], 'speakers' | 'speakerSegments'>,
  extra: Partial<TranscriptDto> = {},
): TranscriptDto {
  return {
    _id: ids.id,
    fileId: ids.fileId,
    companyId: 'c',
    audioPath: 'a.wav',
    status: 'completed',
    reason: null,
    clientId: null,
    engine: 'test',
    language: 'en',
    model: null,
    file: {
      url: '/uploads/a.wav',
      path: 'a.wav',
      filename: 'a.wav',
      originalName: 'call.wav',
      uploadDate: '2025-03-07T12:00:00.000Z',
    },
    metadata: { duration: null, peaksUrl: null, ...metadata },
    createdAt: '2025-03-07T12:00:00.000Z',
    updatedAt: '2025-03-07T12:00:00.000Z',
    ...extra,
  };
}
