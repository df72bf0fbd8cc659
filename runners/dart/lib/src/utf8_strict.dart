// Strict UTF-8 (RFC 3629) for the pure codec.
//
// dart:convert's decoder throws FormatException with an offset, but its offsets and the
// exact set of rejected sequences are not a contract we can cite, so spec §5.3's rules
// and errors.md's offset ("the first byte of the first ill-formed subsequence") are
// implemented here, together with a decoder and an encoder that refuse lone surrogates
// instead of substituting U+FFFD.

import 'dart:typed_data';

/// Index of the first byte of the first ill-formed subsequence in bytes[start, end),
/// or -1 when the range is well-formed UTF-8.
///
/// The accepted sequences are those of RFC 3629 §4 (Unicode Table 3-7): no overlong
/// forms (C0, C1, E0 80..9F, F0 80..8F), no surrogates (ED A0..BF), nothing above
/// U+10FFFF (F4 90.., F5..FF). A sequence that is cut short by `end` is ill-formed and
/// starts at its lead byte.
int firstIllFormedUtf8(Uint8List bytes, int start, int end) {
  var i = start;
  while (i < end) {
    final lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    // Continuation count and the allowed range of the first continuation byte.
    int continuations;
    var low = 0x80;
    var high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      continuations = 1;
    } else if (lead == 0xe0) {
      continuations = 2;
      low = 0xa0; // below A0 would be an overlong 3-byte form
    } else if (lead == 0xed) {
      continuations = 2;
      high = 0x9f; // A0..BF would encode U+D800..U+DFFF
    } else if (lead >= 0xe1 && lead <= 0xef) {
      continuations = 2;
    } else if (lead == 0xf0) {
      continuations = 3;
      low = 0x90; // below 90 would be an overlong 4-byte form
    } else if (lead >= 0xf1 && lead <= 0xf3) {
      continuations = 3;
    } else if (lead == 0xf4) {
      continuations = 3;
      high = 0x8f; // 90.. would be above U+10FFFF
    } else {
      return i; // 80..C1 and F5..FF never start a sequence
    }
    if (end - i - 1 < continuations) return i;
    final first = bytes[i + 1];
    if (first < low || first > high) return i;
    for (var k = 2; k <= continuations; k++) {
      final next = bytes[i + k];
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += continuations + 1;
  }
  return -1;
}

/// Decodes bytes[start, end), which the caller has checked with [firstIllFormedUtf8].
///
/// Written out rather than calling utf8.decode so a leading U+FEFF is kept as a
/// character like any other (the wire has no BOM rule, spec §5).
String decodeWellFormedUtf8(Uint8List bytes, int start, int end) {
  final codePoints = <int>[];
  var i = start;
  while (i < end) {
    final lead = bytes[i];
    if (lead < 0x80) {
      codePoints.add(lead);
      i += 1;
    } else if (lead < 0xe0) {
      codePoints.add(((lead & 0x1f) << 6) | (bytes[i + 1] & 0x3f));
      i += 2;
    } else if (lead < 0xf0) {
      codePoints.add(((lead & 0x0f) << 12) |
          ((bytes[i + 1] & 0x3f) << 6) |
          (bytes[i + 2] & 0x3f));
      i += 3;
    } else {
      codePoints.add(((lead & 0x07) << 18) |
          ((bytes[i + 1] & 0x3f) << 12) |
          ((bytes[i + 2] & 0x3f) << 6) |
          (bytes[i + 3] & 0x3f));
      i += 4;
    }
  }
  // fromCharCodes accepts code points above U+FFFF and makes surrogate pairs of them.
  return String.fromCharCodes(codePoints);
}

/// Index of the first UTF-16 code unit of [text] that is a lone surrogate, or -1.
int firstLoneSurrogate(String text) {
  for (var i = 0; i < text.length; i++) {
    final unit = text.codeUnitAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      final hasLow = i + 1 < text.length &&
          (text.codeUnitAt(i + 1) & 0xfc00) == 0xdc00;
      if (!hasLow) return i;
      i++; // skip the low half of the pair
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return i;
    }
  }
  return -1;
}

/// UTF-8 bytes of [text], or null if it contains a lone surrogate (which has no UTF-8
/// form; dart:convert would write U+FFFD instead, spec §5.3 forbids that silently).
Uint8List? encodeUtf8Strict(String text) {
  if (firstLoneSurrogate(text) >= 0) return null;
  final out = BytesBuilder(copy: false);
  for (final rune in text.runes) {
    if (rune < 0x80) {
      out.addByte(rune);
    } else if (rune < 0x800) {
      out.addByte(0xc0 | (rune >> 6));
      out.addByte(0x80 | (rune & 0x3f));
    } else if (rune < 0x10000) {
      out.addByte(0xe0 | (rune >> 12));
      out.addByte(0x80 | ((rune >> 6) & 0x3f));
      out.addByte(0x80 | (rune & 0x3f));
    } else {
      out.addByte(0xf0 | (rune >> 18));
      out.addByte(0x80 | ((rune >> 12) & 0x3f));
      out.addByte(0x80 | ((rune >> 6) & 0x3f));
      out.addByte(0x80 | (rune & 0x3f));
    }
  }
  return out.takeBytes();
}
