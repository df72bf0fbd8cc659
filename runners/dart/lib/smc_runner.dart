// Public API of the pure-Dart codec and the runner core.

export 'src/backend.dart';
export 'src/buffers.dart';
export 'src/errors.dart';
export 'src/host_converter.dart';
export 'src/host_types.dart';
export 'src/notation.dart';
export 'src/pigeon_host.dart';
export 'src/profiles.dart';
export 'src/protocol.dart';
export 'src/pure_backend.dart';
export 'src/pure_codec.dart';
export 'src/stdio_transport.dart';
export 'src/summary.dart';
export 'src/utf8_strict.dart';
export 'src/value.dart';
export 'src/vector_check.dart';
