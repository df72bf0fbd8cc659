// Capability profiles (runner flag --profile): which feature words of spec/vectors.md
// V.3 each Dart codec can express, per direction. The judge never sends a vector whose
// features are not all in the list for that direction (runners/PROTOCOL.md P.1).
//
// Every omission is listed with its reason so a reader can check it against V.3.

/// The feature words of spec/vectors.md V.3, in the table's order.
const List<String> allFeatures = [
  'int32',
  'int64',
  'int64-distinct',
  'float64',
  'float32list',
  'typed-lists',
  'nan-payload',
  'embedded-nul',
  'custom-types',
  'largeint',
  'duplicate-map-keys',
  'map-order',
  'method-codec',
  'error-stacktrace',
  'strict-mode',
  'depth-limit',
];

/// No encoder has `largeint`: tag 5 is never written (spec §4.4). As in the Swift and
/// Kotlin runners, the other words stay in an encode list unless the codec lacks them.
const Set<String> _neverWritten = {'largeint'};

List<String> _allExcept(Set<String> omitted, {bool encode = false}) => [
      for (final word in allFeatures)
        if (!omitted.contains(word) && !(encode && _neverWritten.contains(word))) word
    ];

class Profile {
  const Profile({
    required this.name,
    required this.summary,
    required this.decode,
    required this.encode,
    required this.options,
  });

  final String name;
  final String summary;
  final List<String> decode;
  final List<String> encode;

  /// Protocol options (P.1): `error-classes`, `error-offsets`, `shift`,
  /// `borrows-input`, `pigeon-int64`.
  final List<String> options;

  /// This profile with [option] added (the Flutter adapter adds `borrows-input`: every
  /// Flutter codec reads typed data as views into the message).
  Profile withOption(String option) => options.contains(option)
      ? this
      : Profile(
          name: name,
          summary: summary,
          decode: decode,
          encode: encode,
          options: [...options, option]);
}

/// What Flutter's StandardMessageCodec on the Dart VM cannot express when decoding
/// (wire-format-notes §2.1, §2.2, §2.6; PROTOCOL.md P.7 works this example):
/// * int64-distinct: one `int` type, tag 3 and tag 4 both become `int` (the judge then
///   compares integers by value).
/// * duplicate-map-keys: a Dart Map merges them (last value wins).
/// * strict-mode: the codec has no strict mode.
/// * largeint: tag 5 decodes as a String, indistinguishable from tag 7.
/// * custom-types: the base codec throws on tags 128..255.
/// * depth-limit: the codec has no nesting limit (spec §15.1 "SHOULD").
const Set<String> _flutterVmDecodeOmits = {
  'int64-distinct',
  'duplicate-map-keys',
  'strict-mode',
  'largeint',
  'custom-types',
  'depth-limit',
};

/// ... and when encoding (wire-format-notes §2.2, §5.2):
/// * int64-distinct: ints are written at the smallest width, by value.
/// * duplicate-map-keys: a Dart Map cannot hold them.
/// * custom-types: the base codec throws ArgumentError on them.
/// * error-stacktrace: encodeErrorEnvelope never writes the 4th element.
/// * strict-mode, depth-limit: the codec has neither.
const Set<String> _flutterVmEncodeOmits = {
  'int64-distinct',
  'duplicate-map-keys',
  'custom-types',
  'error-stacktrace',
  'strict-mode',
  'depth-limit',
};

final Profile pureProfile = Profile(
  name: 'pure',
  summary: 'the pure-Dart codec of this package (lib/src/pure_codec.dart)',
  decode: _allExcept(const {}),
  encode: _allExcept(const {}, encode: true),
  options: const ['error-classes', 'error-offsets', 'shift'],
);

/// Flutter's codec: its FormatException('Message corrupted') does not tell the classes
/// apart (no error-classes), and its ReadBuffer returns typed data as views into the
/// message (borrows-input).
final Profile flutterVmProfile = Profile(
  name: 'flutter-vm',
  summary: "Flutter's StandardMessageCodec/StandardMethodCodec on the Dart VM",
  decode: _allExcept(_flutterVmDecodeOmits),
  encode: _allExcept(_flutterVmEncodeOmits, encode: true),
  options: const ['shift', 'borrows-input'],
);

/// A Pigeon-generated Dart codec (wire-format-notes §4.3): it decodes like the base
/// codec plus custom tags, and writes every int as int64, Pigeon's convention
/// (spec §12.3, R12.3-1): the `pigeon-int64` option, under which the judge expects
/// every integer written with tag 4. Its errors are Flutter's, with no classes. Here it
/// runs over the pure codec, which copies its input (no borrows-input).
final Profile pigeonDartProfile = Profile(
  name: 'pigeon-dart',
  summary: 'a Pigeon-style Dart codec (StandardMessageCodec subclass, ints as int64)',
  decode: _allExcept(_flutterVmDecodeOmits.difference(const {'custom-types'})),
  encode: _allExcept(
      {'int64-distinct', 'duplicate-map-keys', 'error-stacktrace', 'strict-mode', 'depth-limit'},
      encode: true),
  options: const ['shift', 'pigeon-int64'],
);

/// Flutter's codec compiled with dart2js (wire-format-notes §2.2, §2.9): every number
/// is written as float64, so encode loses int32 and int64; ByteData.getInt64 and
/// Int64List are unsupported, so decode loses int64.
final Profile webProfile = Profile(
  name: 'web',
  summary: "Flutter's StandardMessageCodec compiled to JavaScript (dart2js)",
  decode: _allExcept({..._flutterVmDecodeOmits, 'int64'}),
  encode: _allExcept({..._flutterVmEncodeOmits, 'int32', 'int64'}, encode: true),
  options: const ['shift', 'borrows-input'],
);

final Map<String, Profile> profilesByName = {
  for (final profile in [pureProfile, flutterVmProfile, pigeonDartProfile, webProfile])
    profile.name: profile,
};
