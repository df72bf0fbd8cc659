// Public API of the Flutter adapter.

export 'flutter_backend.dart';
export 'flutter_session.dart';
export 'pigeon_shaped_codec.dart';
