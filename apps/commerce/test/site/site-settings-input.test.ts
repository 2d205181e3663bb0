import type { SiteSettingsInput } from '@ctk/proto/ctk/commerce/v1/commerce';
import { AppError } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../src/site/contrast.js';
import { siteSettingsChange } from '../../src/site/site-settings-input.js';

const COLORS = { background: '#FFFAF3', text: '#2b2118', accent: '#8a3b12', accentText: '#ffffff' };
const settings = (change: Partial<SiteSettingsInput> = {}): SiteSettingsInput => ({
  sections: ['hero', 'menu'],
  colors: COLORS,
  title: '  Blue Bottle  ',
  tagline: '',
  about: 'Line one\nLine two',
  target: { kind: { $case: 'folder', value: {} } },
  ...change,
});

/** The issues a refusal names, as [field, message]. */
function refusal(input: SiteSettingsInput): [string, string][] {
  try {
    siteSettingsChange(input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation_failed');
    return ((error as AppError).details?.issues as { field: string; message: string }[]).map((issue) => [issue.field, issue.message]);
  }
  throw new Error('accepted');
}

describe("a site's settings, checked", () => {
  it('takes good settings: colours in lower case, texts trimmed, a folder target', () => {
    expect(siteSettingsChange(settings())).toEqual({
      look: {
        sections: ['hero', 'menu'],
        colors: { ...COLORS, background: '#fffaf3' },
        title: 'Blue Bottle',
        tagline: '',
        about: 'Line one\nLine two',
      },
      target: { kind: 'folder' },
      secretAccessKey: undefined,
    });
  });

  it('takes an S3 target: a prefix ends in "/", the region defaults, the endpoint loses its trailing slash', () => {
    const change = siteSettingsChange(
      settings({
        target: {
          kind: {
            $case: 's3',
            value: {
              endpoint: 'http://127.0.0.1:4568/',
              bucket: 'site',
              region: '',
              prefix: 'www',
              accessKeyId: 'S3RVER',
              secretAccessKey: 'S3RVER',
            },
          },
        },
      }),
    );
    expect(change.target).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:4568',
      bucket: 'site',
      region: 'us-east-1',
      prefix: 'www/',
      accessKeyId: 'S3RVER',
    });
    expect(change.secretAccessKey).toBe('S3RVER');
  });

  it('refuses unreadable colours, naming the field and the contrast', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(refusal(settings({ colors: { ...COLORS, text: '#f5f0e8' } }))).toEqual([
      [
        'colors.text',
        expect.stringMatching(
          /^colors\.text #f5f0e8 on colors\.background #fffaf3 is unreadable: contrast 1\.\d\d:1, at least 4\.5:1 is needed$/,
        ),
      ],
    ]);
    expect(refusal(settings({ colors: { ...COLORS, accentText: '#9a4b22' } })).map(([field]) => field)).toEqual(['colors.accent_text']);
    expect(refusal(settings({ colors: { ...COLORS, accent: '#ffb347' } })).map(([field]) => field)).toEqual([
      'colors.accent',
      'colors.accent_text',
    ]);
    expect(refusal(settings({ colors: { ...COLORS, background: 'white' } }))).toEqual([
      ['colors.background', 'colors.background must be a colour "#rrggbb"'],
    ]);
  });

  it('refuses control characters, over-long texts, unknown or repeated sections', () => {
    expect(refusal(settings({ title: 'Blue\u0000Bottle' }))).toEqual([['title', 'title must not contain control characters']]);
    expect(refusal(settings({ tagline: 'bell\u0007' }))).toEqual([['tagline', 'tagline must not contain control characters']]);
    expect(refusal(settings({ about: 'tab\there' }))).toEqual([['about', 'about must not contain tabs or carriage returns']]);
    expect(refusal(settings({ about: 'escape \u001b[31m' }))[0]![0]).toBe('about');
    expect(refusal(settings({ title: 'x'.repeat(81) }))).toEqual([['title', 'title must be at most 80 characters']]);
    expect(refusal(settings({ sections: ['hero', 'blog'] }))[0]![0]).toBe('sections.1');
    expect(refusal(settings({ sections: ['menu', 'menu'] }))).toEqual([['sections', 'a section may be shown only once']]);
  });

  it('refuses an S3 target that is not safe or not S3: http off this machine, a bad bucket, ".." in the prefix', () => {
    const s3 = (value: Record<string, string>) =>
      settings({
        target: {
          kind: {
            $case: 's3',
            value: {
              endpoint: 'https://s3.example.com',
              bucket: 'site',
              region: '',
              prefix: '',
              accessKeyId: 'AK',
              secretAccessKey: 'SK',
              ...value,
            },
          },
        },
      });
    expect(refusal(s3({ endpoint: 'http://s3.example.com' }))[0]![0]).toBe('target.endpoint');
    expect(refusal(s3({ endpoint: 'https://user:pw@s3.example.com' }))[0]![0]).toBe('target.endpoint');
    expect(refusal(s3({ bucket: 'Not_A_Bucket' }))[0]![0]).toBe('target.bucket');
    expect(refusal(s3({ prefix: 'www/../other' }))[0]![0]).toBe('target.prefix');
    expect(refusal(s3({ accessKeyId: 'with space' }))[0]![0]).toBe('target.access_key_id');
    expect(refusal(settings({ target: {} }))[0]![0]).toBe('target.kind');
  });
});
