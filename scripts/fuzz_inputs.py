#!/usr/bin/env python3
"""Mutation fuzzing of dcusim's inputs: text traces, binary traces and presets.

Each run mutates one input a little (a token, a byte, a key's value), replays it with `dcusim run`,
and flags what the project's rule forbids for bad input: a signal, a sanitizer report, an error of
more than one line, a JSON output left behind by a failed run, or a run over the time limit. Flagged
inputs are kept in the work directory. Best with an ASan/UBSan build (as CI builds build-asan).

Usage: scripts/fuzz_inputs.py [--build DIR] [--runs N] [--seed S] [--timeout SECONDS] [--work DIR]
"""
import argparse
import os
import random
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ODD = ['0', '-1', '1', '18446744073709551615', '18446744073709551616', '0x', '0xffffffffffffffff',
       '4294967296', '65536', '999999999999', 'nan', 'inf', '', 'x', '3', '7', '64', '1e9', '-0', '+5',
       '0x7fffffff', '2147483648', '1K', '99999G']
WORDS = ['all', 'list', 'affine', 'global', 'lds', 'local', 'const']


def mutate_text(rng, lines):
    lines = list(lines)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        t = lines[i].split(' ')
        k = rng.random()
        if k < 0.5 and t:
            t[rng.randrange(len(t))] = rng.choice(ODD)
        elif k < 0.65 and t:
            del t[rng.randrange(len(t))]
        elif k < 0.75:
            t.insert(rng.randrange(len(t) + 1), rng.choice(ODD + WORDS))
        elif k < 0.85:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            continue
        elif k < 0.92:
            return '\n'.join(lines[:i]) + '\n'
        else:
            lines.insert(i, lines[rng.randrange(len(lines))])
            continue
        lines[i] = ' '.join(t)
    return '\n'.join(lines) + '\n'


def mutate_binary(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        k = rng.random()
        if k < 0.6:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif k < 0.75:
            b = b[:rng.randrange(len(b))]
        elif k < 0.9:
            i = rng.randrange(len(b))
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        else:
            i = rng.randrange(len(b))
            del b[i:i + rng.randint(1, 16)]
        if not b:
            b = bytearray(b'x')
    return bytes(b)


def mutate_preset(rng, lines):
    lines = list(lines)
    keys = [i for i, l in enumerate(lines) if '=' in l and not l.lstrip().startswith('#')]
    for _ in range(rng.randint(1, 3)):
        i = rng.choice(keys)
        lines[i] = lines[i].partition('=')[0] + '= ' + rng.choice(ODD)
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--runs', type=int, default=200)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--work', default='fuzz-work')
    a = ap.parse_args()
    dcusim = os.path.join(a.build, 'dcusim')
    os.makedirs(a.work, exist_ok=True)
    examples = os.path.join(ROOT, 'traces', 'examples')
    transpose = open(os.path.join(examples, 'transpose64.trace')).read().splitlines()
    constant = open(os.path.join(examples, 'constant_divergence.trace')).read().splitlines()
    h200 = os.path.join(ROOT, 'configs', 'h200.ini')
    preset = open(h200).read().splitlines()
    binary = os.path.join(a.work, 'example.dctrace')
    subprocess.run([dcusim, 'trace', 'convert', os.path.join(examples, 'transpose64.trace'), binary], check=True)
    binary_data = open(binary, 'rb').read()
    rng = random.Random(a.seed)
    out_json = os.path.join(a.work, 'out.json')
    flagged = 0
    for n in range(a.runs):
        kind = rng.choice(['text', 'text-h200', 'binary', 'preset'])
        args = [dcusim, 'run', '-q', '--json', out_json]
        if kind == 'binary':
            path = os.path.join(a.work, 'in.dctrace')
            open(path, 'wb').write(mutate_binary(rng, binary_data))
            args.append(path)
        elif kind == 'preset':
            path = os.path.join(a.work, 'in.ini')
            open(path, 'w').write(mutate_preset(rng, preset))
            args += ['--config', path, os.path.join(examples, 'transpose64.trace')]
        else:
            path = os.path.join(a.work, 'in.trace')
            open(path, 'w').write(mutate_text(rng, transpose if kind == 'text' else constant))
            if kind == 'text-h200':
                args += ['--config', h200]
            args.append(path)
        if os.path.exists(out_json):
            os.remove(out_json)
        env = dict(os.environ, ASAN_OPTIONS='detect_leaks=0')
        try:
            r = subprocess.run(args, capture_output=True, text=True, timeout=a.timeout, env=env)
            err = r.stderr.strip().splitlines()
            problem = None
            if r.returncode < 0 or r.returncode >= 128:
                problem = 'signal or exit %d' % r.returncode
            elif 'Sanitizer' in r.stderr or 'runtime error' in r.stderr or 'terminate called' in r.stderr:
                problem = 'sanitizer report'
            elif r.returncode != 0 and len(err) != 1:
                problem = '%d-line error' % len(err)
            elif r.returncode != 0 and os.path.exists(out_json):
                problem = 'JSON left by a failed run'
        except subprocess.TimeoutExpired:
            problem, err = 'over %g s' % a.timeout, []
        if problem:
            flagged += 1
            keep = os.path.join(a.work, 'flagged_%d_%s' % (n, os.path.basename(path)))
            shutil.copy(path, keep)
            print('run %d (%s): %s: %s | %s' % (n, kind, problem, keep, ' / '.join(err[:2])[:300]))
    print('%d runs, %d flagged' % (a.runs, flagged))
    return 1 if flagged else 0


if __name__ == '__main__':
    sys.exit(main())
