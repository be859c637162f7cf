extension KeywordTable {
  /// Built-in entries, in the text form of ``KeywordTable/load(_:)``.
  static let builtinData = """
    interfaces named
    groups named
    routing-instances named
    unit keyed 1
    family keyed 1
    """
}
