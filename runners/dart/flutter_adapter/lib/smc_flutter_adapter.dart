// Public API of the Flutter adapter.

export 'flutter_backend.dart';
export 'host_converter.dart';
export 'pigeon_shaped_codec.dart';
