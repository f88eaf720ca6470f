extension PropertyType {
    /// RealmSwift's name of `.mixed`: a property of `AnyRealmValue`, so code that switches on
    /// `property.type` with `case .any:` ports unchanged.
    public static var any: PropertyType { .mixed }

    /// RealmSwift's name of `.uuid`: a property of `UUID`, so `case .UUID:` ports unchanged.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    public static var UUID: PropertyType { .uuid }
}
