import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ffprobeBeside, processLimits, runProcess } from './ffmpeg.ts';
import { MediaError } from './types.ts';

const timedOut = (pattern: RegExp) => (error: unknown) => error instanceof MediaError && error.code === 'timed_out' && pattern.test(error.message);

test('a process past its time cap is killed, not waited for', async () => {
  const started = Date.now();
  await assert.rejects(runProcess('sleep', ['5'], { deadline: Date.now() + 200, what: 'Sleeping' }), timedOut(/Sleeping took longer than/));
  assert.ok(Date.now() - started < 1_500, `${Date.now() - started} ms`);
  const done = await runProcess('sh', ['-c', 'printf hello; printf oops >&2; exit 3'], { deadline: Date.now() + 5_000, what: 'Shell' });
  assert.deepEqual({ code: done.code, out: done.stdout.toString(), err: done.stderr }, { code: 3, out: 'hello', err: 'oops' });
  await assert.rejects(
    runProcess('sh', ['-c', 'head -c 100000 /dev/zero'], { deadline: Date.now() + 5_000, maxStdoutBytes: 1000, what: 'Shell' }),
    (error: unknown) => error instanceof MediaError && error.code === 'too_large',
  );
});

test('processes run a bounded number at a time; waiting counts against the time cap; past the queue they fail at once', async () => {
  const saved = { ...processLimits };
  Object.assign(processLimits, { running: 1, waiting: 1 });
  try {
    const started = Date.now();
    const first = runProcess('sleep', ['0.4'], { deadline: Date.now() + 5_000, what: 'First' });
    const second = runProcess('sleep', ['0.1'], { deadline: Date.now() + 5_000, what: 'Second' }).then(() => Date.now() - started);
    await assert.rejects(runProcess('sleep', ['0.1'], { deadline: Date.now() + 5_000, what: 'Third' }), timedOut(/too many audio and video files/));
    await first;
    assert.ok((await second) >= 450, 'the second started after the first ended');

    const long = runProcess('sleep', ['0.5'], { deadline: Date.now() + 5_000, what: 'Long' });
    await assert.rejects(runProcess('sleep', ['0.1'], { deadline: Date.now() + 100, what: 'Impatient' }), timedOut(/waited for a free decoder/));
    const controller = new AbortController();
    const cancelled = runProcess('sleep', ['0.1'], { deadline: Date.now() + 5_000, signal: controller.signal, what: 'Cancelled' });
    controller.abort(new MediaError('timed_out', 'request cancelled'));
    await assert.rejects(cancelled, timedOut(/request cancelled/));
    await long;
    // The slots came back: a run now starts at once.
    const quick = Date.now();
    await runProcess('true', [], { deadline: Date.now() + 5_000, what: 'Quick' });
    assert.ok(Date.now() - quick < 1_000);
  } finally {
    Object.assign(processLimits, saved);
  }
});

test('ffprobe is looked for beside the configured ffmpeg', () => {
  assert.equal(ffprobeBeside('ffmpeg'), 'ffprobe');
  assert.equal(ffprobeBeside('/opt/ffmpeg-7/bin/ffmpeg'), '/opt/ffmpeg-7/bin/ffprobe');
  assert.equal(ffprobeBeside('/usr/local/bin/ffmpeg-static'), '/usr/local/bin/ffprobe-static');
});
