package changelog

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// DefaultConfigFile is where the configuration lives in the repository by default.
const DefaultConfigFile = ".gitlab/changelog_config.yml"

// DefaultDateFormat formats release dates (strftime).
const DefaultDateFormat = "%Y-%m-%d"

// DefaultTemplate renders the categories of a release (GitLab's default template).
const DefaultTemplate = `{% if categories %}
{% each categories %}
### {{ title }} ({% if single_change %}1 change{% else %}{{ count }} changes{% end %})

{% each entries %}
- [{{ title }}]({{ commit.web_url }})\
{% if author.credit %} by {{ author.reference }}{% end %}\
{% if merge_request %} ([merge request]({{ merge_request.web_url }})){% end %}

{% end %}

{% end %}
{% else %}
No changes.
{% end %}
`

// Category maps a trailer value to the title shown in the changelog.
type Category struct {
	Name, Title string
}

// Config is a changelog configuration (the YAML file's date_format, template, categories,
// tag_regex and include_groups).
type Config struct {
	DateFormat string
	Template   *Template
	// Categories keep the file's order: releases list them first, in this order.
	Categories []Category
	TagRegex   string
	// IncludeGroups are full paths of groups whose members are always credited.
	IncludeGroups []string
}

// DefaultConfig is the configuration used when the repository has none.
func DefaultConfig() *Config {
	t, err := ParseTemplate(DefaultTemplate)
	if err != nil {
		panic(err) // the built-in template is valid
	}
	return &Config{DateFormat: DefaultDateFormat, Template: t, TagRegex: DefaultTagRegex}
}

// ParseConfig reads a configuration file over the defaults. Problems are *Error values.
func ParseConfig(data []byte) (*Config, error) {
	cfg := DefaultConfig()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, errorf("The changelog configuration is not valid YAML: %s", err.Error())
	}
	if len(doc.Content) == 0 {
		return cfg, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errorf("The changelog configuration must be a Hash")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i].Value, root.Content[i+1]
		if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
			continue
		}
		switch key {
		case "date_format":
			cfg.DateFormat = val.Value
		case "template":
			t, err := ParseTemplate(val.Value)
			if err != nil {
				return nil, err
			}
			cfg.Template = t
		case "tag_regex":
			cfg.TagRegex = val.Value
		case "categories":
			if val.Kind != yaml.MappingNode {
				return nil, errorf(`The "categories" configuration key must be a Hash`)
			}
			for j := 0; j+1 < len(val.Content); j += 2 {
				cfg.Categories = append(cfg.Categories, Category{Name: val.Content[j].Value, Title: scalar(val.Content[j+1])})
			}
		case "include_groups":
			if val.Kind != yaml.SequenceNode {
				return nil, errorf(`The "include_groups" configuration key must be an Array`)
			}
			for _, g := range val.Content {
				cfg.IncludeGroups = append(cfg.IncludeGroups, g.Value)
			}
		}
	}
	return cfg, nil
}

func scalar(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return fmt.Sprint(n.Value)
}

// CategoryTitle maps a trailer value to its configured title (itself when unmapped).
func (c *Config) CategoryTitle(name string) string {
	for _, cat := range c.Categories {
		if cat.Name == name {
			return cat.Title
		}
	}
	return name
}
