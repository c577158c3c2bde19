// FieldsBox.swift
//
// The box a type's published field list lives in (LazyValue.swift), read on the warm path of
// ``TypeMetadata/fields``.

/// A boxed field list or its error.
///
/// The list and the error are stored apart, not as a `Result`: copying a `Result` out of the
/// box goes through its generic value witnesses, which cost more than the rest of the read.
@usableFromInline
final class FieldsBox: LazyBox {
    /// The fields' storage, which the box keeps alive, and the fields that refer to it.
    @usableFromInline
    struct Contents: Sendable {
        let storage: [Field.Storage]
        @usableFromInline
        let fields: [Field]
        /// The names' words, when every name is a small ASCII string: a name asked for that is
        /// one too is found by comparing two words with each (``StringObjectLayout``).
        let smallASCIINames: [StringObjectLayout]?

        init(_ storage: [Field.Storage]) {
            self.storage = storage
            // The box that holds these contents lives as long as the process, and with it
            // the storage each field refers to without retaining it.
            self.fields = storage.map { Field(storage: ImmortalReference(immortal: $0)) }
            let names = storage.map { StringObjectLayout($0.name) }
            self.smallASCIINames = names.allSatisfy(\.isSmallASCII) ? names : nil
        }
    }

    @usableFromInline
    let contents: Contents
    @usableFromInline
    let error: RuntimeMetadataError?
    /// Whether the list failed, for the warm path: reading `error == nil` there copies the
    /// optional error, a 57-byte enum, out of the box (about 10 ns, ten times the rest of the
    /// read, since `corruptMetadata` made the error that large).
    @usableFromInline
    let failed: Bool
    @inlinable
    var fields: [Field] { contents.fields }
    @usableFromInline
    var value: Result<Contents, RuntimeMetadataError> { error.map { .failure($0) } ?? .success(contents) }

    /// The field with a name, by a linear search: types have few fields, and a dictionary
    /// would hash the name, which costs more than comparing it with a handful of names. Most
    /// names are short ASCII, compared as two words each; any other by `==`, which would
    /// otherwise be called for every name that differs.
    func field(named name: String) -> Field? {
        let words = StringObjectLayout(name)
        if let smallASCIINames = contents.smallASCIINames, words.isSmallASCII {
            for index in smallASCIINames.indices where smallASCIINames[index] == words {
                return contents.fields[index]
            }
            return nil
        }
        for field in contents.fields where field.storage.withObject({ $0.name == name }) { return field }
        return nil
    }

    @usableFromInline
    init(_ value: Result<Contents, RuntimeMetadataError>) {
        switch value {
        case .success(let contents): (self.contents, self.error, self.failed) = (contents, nil, false)
        case .failure(let error): (self.contents, self.error, self.failed) = (Contents([]), error, true)
        }
    }
}
