import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  baseName,
  fileNameGlob,
  mappingFromPick,
  mayBeTruncated,
  normalizePath,
  parseMappings,
  parsePath,
  resolveSourcePath,
  type ResolveOptions,
  type SourceFileSystem,
} from '../../../src/core/sourcePath';

/** An in-memory workspace: a list of absolute '/'-form file paths. Records every call. */
function fakeFs(files: string[]): SourceFileSystem & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async exists(path) {
      calls.push(`exists ${path}`);
      return files.includes(path);
    },
    async findFiles(name, { prefix, ignoreCase }) {
      calls.push(`find ${prefix ? 'prefix' : 'name'} ${name}`);
      const want = ignoreCase ? name.toLowerCase() : name;
      return files.filter((f) => {
        let b = f.slice(f.lastIndexOf('/') + 1);
        if (ignoreCase) b = b.toLowerCase();
        return prefix ? b.startsWith(want) : b === want;
      });
    },
  };
}

function opts(files: string[], extra: Partial<ResolveOptions> = {}): ResolveOptions {
  return { roots: ['/ws/app'], mappings: [], fs: fakeFs(files), ...extra };
}

test('parsePath handles POSIX, Windows drive, UNC, ./ and ../', () => {
  assert.deepEqual(parsePath('/a/./b/../c.c'), { root: '/', segments: ['a', 'c.c'], windowsStyle: false });
  assert.deepEqual(parsePath('C:\\x\\y.c'), { root: 'C:/', segments: ['x', 'y.c'], windowsStyle: true });
  assert.deepEqual(parsePath('c:/x/y.c').root, 'C:/');
  assert.deepEqual(parsePath('\\\\server\\share\\dir\\a.c'), { root: '//server/share/', segments: ['dir', 'a.c'], windowsStyle: true });
  assert.deepEqual(parsePath('../src/./a.c'), { root: '', segments: ['..', 'src', 'a.c'], windowsStyle: false });
  assert.deepEqual(parsePath('/../a.c').segments, ['a.c']);
  assert.equal(normalizePath('/ws//app/'), '/ws/app');
  assert.equal(baseName('C:\\x\\y.c'), 'y.c');
});

test('a name of exactly 39 bytes may be truncated, shorter ones not', () => {
  assert.equal(mayBeTruncated('/sandbox/chan/mpich_work/mpich_tmp/mpe/'), true); // from fpilog.clog
  assert.equal(mayBeTruncated('user_states.c'), false);
  assert.equal(mayBeTruncated('x'.repeat(40)), false);
});

test('absolute path that exists wins over suffix matches', async () => {
  const r = await resolveSourcePath('/ws/app/src/user_states.c', opts(['/ws/app/src/user_states.c', '/ws/app/copy/src/user_states.c']));
  assert.ok(r.found);
  assert.equal(r.best.path, '/ws/app/src/user_states.c');
  assert.equal(r.best.kind, 'absolute');
  assert.equal(r.best.root, '/ws/app');
  assert.equal(r.reason, 'the recorded path exists');
});

test('a bare recorded name (as __FILE__ often is) resolves relative to a workspace folder', async () => {
  const r = await resolveSourcePath('user_states.c', opts(['/ws/app/user_states.c', '/ws/app/sub/user_states.c']));
  assert.ok(r.found);
  assert.equal(r.best.kind, 'relative');
  assert.equal(r.best.path, '/ws/app/user_states.c');
});

test('POSIX path from another machine: longest suffix wins', async () => {
  const files = ['/ws/app/user_states.c', '/ws/app/corpus/programs/user_states.c', '/ws/app/old/programs/user_states.c'];
  const r = await resolveSourcePath('/home/alice/mpe/corpus/programs/user_states.c', opts(files));
  assert.ok(r.found);
  assert.equal(r.best.path, '/ws/app/corpus/programs/user_states.c');
  assert.equal(r.best.kind, 'suffix');
  assert.equal(r.best.matchedSegments, 3);
  assert.equal(r.reason, 'matched by suffix corpus/programs/user_states.c');
  assert.equal(r.ambiguous, false);
  assert.deepEqual(
    r.candidates.map((c) => [c.kind, c.matchedSegments]),
    [
      ['suffix', 3],
      ['suffix', 2],
      ['basename', 1],
    ],
  );
});

test('file name only: basename match, reason names the file', async () => {
  const r = await resolveSourcePath('/cluster/build/ring.c', opts(['/ws/app/src/ring.c']));
  assert.ok(r.found);
  assert.equal(r.best.kind, 'basename');
  assert.equal(r.reason, 'matched by file name ring.c');
});

test('ambiguity: equal matches are flagged and ordered deterministically (shallower, then code-unit order)', async () => {
  const files = ['/ws/app/b/deep/x/a.c', '/ws/app/z/a.c', '/ws/app/b/a.c'];
  const r1 = await resolveSourcePath('/other/a.c', opts(files));
  const r2 = await resolveSourcePath('/other/a.c', opts([...files].reverse()));
  assert.ok(r1.found && r2.found);
  assert.equal(r1.ambiguous, true);
  assert.deepEqual(
    r1.candidates.map((c) => c.path),
    ['/ws/app/b/a.c', '/ws/app/z/a.c', '/ws/app/b/deep/x/a.c'],
  );
  assert.deepEqual(
    r2.candidates.map((c) => c.path),
    r1.candidates.map((c) => c.path),
  );
  assert.equal(r1.reason, 'matched by file name a.c (1 of 3 equally good matches)');
});

test('mappings: longest prefix wins, on segment boundaries, with ${workspaceFolder}', async () => {
  const { mappings, problems } = parseMappings({
    '/scratch': '/nowhere',
    '/scratch/alice/proj': '${workspaceFolder}',
    '/scratch/alice/projX': '/wrong',
    bad: 3,
  });
  assert.deepEqual(problems, ['mapping "bad" ignored: its target must be a non-empty string']);
  assert.deepEqual(
    mappings.map((m) => m.from),
    ['/scratch/alice/projX', '/scratch/alice/proj', '/scratch'],
  );
  const files = ['/ws/app/src/ring.c', '/ws/app/other/src/ring.c'];
  const fs = fakeFs(files);
  const r = await resolveSourcePath('/scratch/alice/proj/src/ring.c', { roots: ['/ws/app'], mappings, fs });
  assert.ok(r.found);
  assert.equal(r.best.kind, 'mapped');
  assert.equal(r.best.path, '/ws/app/src/ring.c');
  assert.equal(r.reason, 'mapped by "/scratch/alice/proj" → "${workspaceFolder}"');
  // The mapping hit, so no workspace-wide search was needed.
  assert.ok(!fs.calls.some((c) => c.startsWith('find')));
});

test('mapping to a missing file falls back to suffix matching and is reported when nothing matches', async () => {
  const { mappings } = parseMappings({ '/scratch/alice': '/ws/app/gone' });
  const r = await resolveSourcePath('/scratch/alice/src/ring.c', opts(['/ws/app/src/ring.c'], { mappings }));
  assert.ok(r.found);
  assert.equal(r.best.kind, 'suffix');
  const miss = await resolveSourcePath('/scratch/alice/src/none.c', opts([], { mappings }));
  assert.equal(miss.found, false);
  assert.match(miss.reason, /the path mapping gives \/ws\/app\/gone\/src\/none\.c, which does not exist/);
});

test('mapping targets: relative to each folder, named folder, Windows prefixes case-insensitive', async () => {
  const { mappings } = parseMappings({ 'D:\\Build\\Proj': '${workspaceFolder:lib}/src', '/opt/x': 'vendor' });
  const roots = ['/ws/app', '/ws/lib'];
  const r = await resolveSourcePath('d:\\build\\proj\\Util.c', { roots, mappings, fs: fakeFs(['/ws/lib/src/Util.c']) });
  assert.ok(r.found);
  assert.equal(r.best.path, '/ws/lib/src/Util.c');
  assert.equal(r.best.root, '/ws/lib');
  const r2 = await resolveSourcePath('/opt/x/y.c', { roots, mappings, fs: fakeFs(['/ws/lib/vendor/y.c']) });
  assert.ok(r2.found);
  assert.equal(r2.best.kind, 'mapped');
  assert.equal(r2.best.path, '/ws/lib/vendor/y.c');
});

test('Windows-style recorded paths match workspace files by suffix, ignoring case', async () => {
  const r = await resolveSourcePath('C:\\Users\\Bob\\Proj\\SRC\\Ring.c', opts(['/ws/app/src/ring.c', '/ws/app/ring.c']));
  assert.ok(r.found);
  assert.equal(r.best.path, '/ws/app/src/ring.c');
  assert.equal(r.best.matchedSegments, 2);
  const unc = await resolveSourcePath('\\\\server\\share\\proj\\src\\ring.c', opts(['/ws/app/proj/src/ring.c']));
  assert.ok(unc.found);
  assert.equal(unc.best.matchedSuffix, 'proj/src/ring.c');
});

test('Windows workspace roots (native form) are normalised', async () => {
  const r = await resolveSourcePath('/home/a/src/ring.c', {
    roots: ['C:\\ws\\app'],
    mappings: [],
    fs: fakeFs(['C:/ws/app/src/ring.c']),
  });
  assert.ok(r.found);
  assert.equal(r.best.root, 'C:/ws/app');
});

test('truncated name: the cut last segment is matched as a file-name prefix, directories rank', async () => {
  const recorded = '/home/alice/proj/src/particle_interacti'; // 39 bytes, cut mid-name
  assert.equal(recorded.length, 39);
  const files = ['/ws/app/src/particle_interactions.c', '/ws/app/test/particle_interactions_test.c', '/ws/app/src/particle.c'];
  const r = await resolveSourcePath(recorded, opts(files));
  assert.ok(r.found);
  assert.equal(r.best.kind, 'truncated');
  assert.equal(r.best.path, '/ws/app/src/particle_interactions.c');
  assert.equal(r.ambiguous, false);
  assert.deepEqual(
    r.candidates.map((c) => c.path),
    ['/ws/app/src/particle_interactions.c', '/ws/app/test/particle_interactions_test.c'],
  );
  assert.match(r.reason, /cut at 39 bytes; matched by its beginning: src\/particle_interactions\.c/);
});

test('a 38-byte name is not treated as truncated (no prefix search)', async () => {
  const recorded = '/home/alice/proj/src/particle_interact';
  assert.equal(recorded.length, 38);
  const fs = fakeFs(['/ws/app/src/particle_interactions.c']);
  const r = await resolveSourcePath(recorded, { roots: ['/ws/app'], mappings: [], fs });
  assert.equal(r.found, false);
  assert.ok(!fs.calls.some((c) => c.startsWith('find prefix')));
});

test('not found: clear reason and a mapping suggestion for absolute paths', async () => {
  const r = await resolveSourcePath('/home/alice/proj/src/particle_interacti', opts(['/ws/app/a.c']));
  assert.equal(r.found, false);
  assert.match(r.reason, /no file in the workspace matches/);
  assert.match(r.reason, /39-byte/);
  assert.deepEqual(r.suggestion, { from: '/home/alice/proj/src', to: '${workspaceFolder}' });
  // Cut right after a '/': only a directory is left; no prefix search on "mpe" (it is not a file name).
  const fs = fakeFs(['/ws/app/mpe_log.c']);
  const dirOnly = await resolveSourcePath('/sandbox/chan/mpich_work/mpich_tmp/mpe/', { roots: ['/ws/app'], mappings: [], fs });
  assert.equal(dirOnly.found, false);
  assert.match(dirOnly.reason, /only the directory .* the file name was cut off/);
  assert.deepEqual(fs.calls, []);
  const rel = await resolveSourcePath('missing.c', opts([]));
  assert.equal(rel.found, false);
  assert.equal(rel.suggestion, undefined);
  const empty = await resolveSourcePath('', opts([]));
  assert.equal(empty.found, false);
  assert.match(empty.reason, /no usable file name/);
});

test('the info-text override turns off truncation handling', async () => {
  const recorded = '/home/alice/proj/src/particle_interacti';
  const r = await resolveSourcePath(recorded, opts(['/ws/app/src/particle_interactions.c'], { truncated: false }));
  assert.equal(r.found, false);
});

test('mappingFromPick strips the common tail', () => {
  assert.deepEqual(mappingFromPick('/home/alice/proj/src/a.c', '/work/proj/src/a.c'), { from: '/home/alice', to: '/work' });
  assert.deepEqual(mappingFromPick('C:\\b\\Src\\a.c', '/w/src/a.c'), { from: 'C:/b', to: '/w' });
  assert.equal(mappingFromPick('a.c', '/w/a.c'), undefined);
  assert.equal(mappingFromPick('/x/a.c', '/y/b.c'), undefined);
});

test('parseMappings rejects non-objects without throwing', () => {
  assert.equal(parseMappings([1, 2]).problems.length, 1);
  assert.equal(parseMappings('x').mappings.length, 0);
  assert.deepEqual(parseMappings(undefined), { mappings: [], problems: [] });
});

test('fileNameGlob neutralises glob syntax and can ignore case', () => {
  assert.equal(fileNameGlob('user_states.c', false), 'user_states.c');
  assert.equal(fileNameGlob('a[1]{x,y}*.c', false), 'a?1??x?y??.c');
  assert.equal(fileNameGlob('Ring.c', true), '[rR][iI][nN][gG].[cC]');
  assert.equal(fileNameGlob('_1.F90', true), '_1.[fF]90');
});
